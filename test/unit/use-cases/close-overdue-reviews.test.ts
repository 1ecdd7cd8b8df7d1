import { describe, expect, it } from "vitest";
import type { VerificationItem } from "#shared/domain/verification";
import { closeOverdueReviews } from "#shared/use-cases/tick/close-overdue-reviews";
import { aVerification, InMemoryVerificationStore, verificationId } from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const NOW = "2026-11-30T12:00:00Z";

function inReview(n: number, deadline: string, sequence = 3): VerificationItem {
  return aVerification({
    verification_id: verificationId(n),
    status: "in_review",
    sequence,
    review_reason: "issuer_unavailable",
    review_required_at: "2026-11-27T12:00:00Z",
    review_deadline: deadline,
  });
}

describe("closeOverdueReviews", () => {
  it("ends every review whose window has closed inconclusive, review_timeout, and leaves the open ones", async () => {
    const verifications = new InMemoryVerificationStore().put(
      inReview(1, "2026-11-30T11:59:59Z"),
      inReview(2, "2026-11-28T08:00:00Z"),
      inReview(3, "2026-11-30T12:00:01Z"),
    );

    const closed = await closeOverdueReviews({ verifications, clock: new FixedClock(NOW) });

    expect(closed).toBe(2);
    for (const n of [1, 2]) {
      const item = verifications.stored(verificationId(n));
      expect(item).toMatchObject({
        status: "completed",
        result: "inconclusive",
        sequence: 4,
        reasons: [{ code: "review_timeout" }],
        review_decided_at: NOW,
        completed_at: NOW,
      });
    }
    expect(verifications.stored(verificationId(3))).toMatchObject({ status: "in_review", sequence: 3 });
  });

  it("counts nothing when a decision landed between the read and the write", async () => {
    const verifications = new InMemoryVerificationStore().put(inReview(1, "2026-11-30T11:00:00Z"));
    const read = verifications.inReviewPastDeadline.bind(verifications);
    verifications.inReviewPastDeadline = async function* (day, now) {
      for await (const item of read(day, now)) {
        // A reviewer decides while the tick holds its stale copy.
        verifications.put({ ...item, status: "completed", result: "verified", sequence: item.sequence + 1 });
        yield item;
      }
    };

    expect(await closeOverdueReviews({ verifications, clock: new FixedClock(NOW) })).toBe(0);
    expect(verifications.stored(verificationId(1))).toMatchObject({ result: "verified", sequence: 4 });
  });
});
