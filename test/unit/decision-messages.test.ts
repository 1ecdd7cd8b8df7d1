import { describe, expect, it } from "vitest";
import { decisionMessage, REASON_MESSAGES } from "#shared/domain/reasons";
import { toResource } from "#shared/domain/verification";
import { settleSandboxReview } from "#shared/use-cases/review/complete";
import { closeOverdueReviews } from "#shared/use-cases/tick/close-overdue-reviews";
import { aVerification, InMemoryVerificationStore, verificationId } from "../support/fakes.ts";
import { FixedClock } from "../support/fixed-clock.ts";

const NOW = "2026-11-30T12:00:00Z";

describe("decisionMessage: who decided, in the customer's words", () => {
  it("keeps the checks' own sentence when the checks decided", () => {
    expect(decisionMessage("verified", {})).toBe(REASON_MESSAGES.verified);
    expect(decisionMessage("document_altered", {})).toBe(REASON_MESSAGES.document_altered);
  });

  it("never says the issuer confirmed a document a reviewer verified", () => {
    for (const review_reason of ["issuer_unavailable", "original_pdf_not_provided", "fields_incomplete"] as const) {
      const message = decisionMessage("verified", { decided_by: "someone", review_reason });
      expect(message).toMatch(/^A reviewer verified the document; /);
      expect(message).toMatch(/issuer's copy/);
      expect(message).not.toContain("every check passed");
      expect(message).not.toContain("someone");
    }
  });

  it("asks the customer for the e-Devlet PDF when a reviewer rejected a photo for it", () => {
    expect(REASON_MESSAGES.original_pdf_required).toMatch(/^Send the original PDF from e-Devlet/);
    expect(
      decisionMessage("original_pdf_required", { decided_by: "someone", review_reason: "original_pdf_not_provided" }),
    ).toBe(
      "A reviewer asked for the original PDF from e-Devlet; the issuer's copy was not compared, as a photo was sent instead of the PDF",
    );
  });

  it("says a forced outcome was forced, by its prefix, whatever the code", () => {
    for (const code of ["verified", "document_not_found_at_issuer", "review_timeout", "document_unreadable"]) {
      expect(decisionMessage(code, { sandbox_prefix: "test_x_" })).toBe(
        "The sandbox reference prefix test_x_ forced this outcome: no check ran and nobody reviewed the document",
      );
    }
  });
});

describe("a sandbox review, decided or left to its window", () => {
  const forcedReview = (n: number, reference: string) =>
    aVerification({
      verification_id: verificationId(n),
      status: "in_review",
      sequence: 3,
      external_reference_id: reference,
      review_reason: "review_requested",
      review_required_at: "2026-11-27T12:00:00Z",
      review_deadline: "2026-11-30T11:00:00Z",
      sandbox_prefix: reference.replace(/a$/, ""),
    });

  it("is decided as forced, in the message and the reason, also once erased", async () => {
    const item = forcedReview(1, "test_review_rejected_a");
    const verifications = new InMemoryVerificationStore().put(item);
    await settleSandboxReview({ verifications, clock: new FixedClock(NOW), sleep: async () => {} }, item);
    const stored = verifications.stored(verificationId(1));
    const forced = "The sandbox reference prefix test_review_rejected_ forced this outcome";
    expect(stored.reasons).toEqual([{ code: "not_genuine", message: expect.stringContaining(forced) }]);
    expect(toResource({ ...stored, external_reference_id: undefined }, NOW).message).toContain(forced);
  });

  it("ends as any review window does when nobody decided it in time", async () => {
    const verifications = new InMemoryVerificationStore().put(forcedReview(2, "test_review_verified_a"));
    expect(await closeOverdueReviews({ verifications, clock: new FixedClock(NOW) })).toBe(1);
    const resource = toResource(verifications.stored(verificationId(2)), NOW);
    expect(resource).toMatchObject({
      result: "inconclusive",
      message: REASON_MESSAGES.review_timeout,
      reasons: [{ code: "review_timeout", message: REASON_MESSAGES.review_timeout }],
    });
  });
});
