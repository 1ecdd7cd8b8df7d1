import { describe, expect, it } from "vitest";
import type { VerificationItem } from "#shared/domain/verification";
import { expireOverdue } from "#shared/use-cases/tick/expire-overdue";
import { aVerification, InMemoryVerificationStore, verificationId } from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const NOW = "2026-11-30T12:00:00Z";

function awaiting(n: number, deadline: string): VerificationItem {
  return aVerification({ verification_id: verificationId(n), upload_deadline: deadline });
}

function setup(...items: VerificationItem[]) {
  const verifications = new InMemoryVerificationStore().put(...items);
  const clock = new FixedClock(NOW);
  return { verifications, clock, deps: { verifications, clock } };
}

describe("expireOverdue", () => {
  it("expires every awaited verification past its deadline, as of its deadline", async () => {
    const { verifications, deps } = setup(
      awaiting(1, "2026-11-30T11:59:59Z"),
      awaiting(2, "2026-11-29T08:00:00Z"),
      awaiting(3, NOW),
    );

    const expired = await expireOverdue(deps);

    expect(expired).toBe(3);
    expect(verifications.stored(verificationId(1))).toMatchObject({
      status: "expired",
      sequence: 2,
      updated_at: "2026-11-30T11:59:59Z",
    });
    expect(verifications.stored(verificationId(2))).toMatchObject({
      status: "expired",
      sequence: 2,
      updated_at: "2026-11-29T08:00:00Z",
    });
    expect(verifications.stored(verificationId(3))).toMatchObject({ status: "expired", updated_at: NOW });
  });

  it("asks each expiry to hold only while the deadline is still past", async () => {
    const { verifications, deps } = setup(awaiting(1, "2026-11-30T11:00:00Z"));

    await expireOverdue(deps);

    expect(verifications.transitions).toEqual([
      {
        id: verificationId(1),
        from: "awaiting_upload",
        to: "expired",
        now: "2026-11-30T11:00:00Z",
        set: { completed_at: "2026-11-30T11:00:00Z" },
        expect: { deadlinePassedBy: NOW },
      },
    ]);
  });

  it("expires nothing whose stored deadline is still ahead, whatever the read said", async () => {
    const { verifications, clock } = setup(awaiting(1, "2026-11-30T12:00:01Z"));
    const stale = {
      async awaitingPastDeadline(_since: string, _now: string, visit: (item: VerificationItem) => Promise<void>) {
        await visit(awaiting(1, "2026-11-30T08:00:00Z"));
      },
      transition: verifications.transition.bind(verifications),
    };

    expect(await expireOverdue({ verifications: stale, clock })).toBe(0);
    expect(verifications.stored(verificationId(1)).status).toBe("awaiting_upload");
  });

  it("leaves a verification whose deadline is still ahead", async () => {
    const { verifications, deps } = setup(awaiting(1, "2026-11-30T12:00:01Z"), awaiting(2, "2026-12-01T00:00:00Z"));

    expect(await expireOverdue(deps)).toBe(0);
    expect(verifications.stored(verificationId(1)).status).toBe("awaiting_upload");
    expect(verifications.stored(verificationId(2)).status).toBe("awaiting_upload");
  });

  it("looks back seven days of deadlines, and no further", async () => {
    const { verifications, deps } = setup(awaiting(1, "2026-11-23T00:00:00Z"), awaiting(2, "2026-11-22T23:59:59Z"));

    expect(await expireOverdue(deps)).toBe(1);
    expect(verifications.stored(verificationId(1)).status).toBe("expired");
    expect(verifications.stored(verificationId(2)).status).toBe("awaiting_upload");
  });

  it("leaves verifications that moved on", async () => {
    const processing = aVerification({
      verification_id: verificationId(1),
      status: "processing",
      sequence: 2,
      upload_deadline: "2026-11-30T08:00:00Z",
    });
    const { verifications, deps } = setup(processing);

    expect(await expireOverdue(deps)).toBe(0);
    expect(verifications.stored(verificationId(1))).toEqual(processing);
  });

  it("does nothing the second time", async () => {
    const { deps } = setup(awaiting(1, "2026-11-30T08:00:00Z"));
    await expireOverdue(deps);

    expect(await expireOverdue(deps)).toBe(0);
  });

  it("does not count a verification confirmed between the read and the write", async () => {
    const seen = awaiting(1, "2026-11-30T08:00:00Z");
    const { verifications, clock } = setup({ ...seen, status: "processing", sequence: 2 });
    const stale = {
      // The query saw it awaiting; by the time of the write it is processing.
      async awaitingPastDeadline(_since: string, _now: string, visit: (item: VerificationItem) => Promise<void>) {
        await visit(seen);
      },
      transition: verifications.transition.bind(verifications),
    };

    expect(await expireOverdue({ verifications: stale, clock })).toBe(0);
    expect(verifications.stored(verificationId(1))).toMatchObject({ status: "processing", sequence: 2 });
  });
});
