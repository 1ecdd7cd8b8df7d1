/**
 * Takes a verification out of review to `completed`: a person's decision, the sandbox's
 * forced one, or the review window closing with nobody having decided (`inconclusive`). The
 * personal keys a review kept for asking the issuer again go with it.
 */
import { decisionMessage, type ReasonCode } from "../../domain/reasons.ts";
import type { AuditRecord } from "../../domain/responses/audit.ts";
import { forcedOutcome, SANDBOX_REVIEW_DELAY_MS } from "../../domain/sandbox.ts";
import type { Result } from "../../domain/state.ts";
import { isoSeconds } from "../../domain/time.ts";
import { personalKeysForgotten, type VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { TransitionOutcome, VerificationStore } from "../../ports/verification-store.ts";

export interface ReviewDecision {
  result: Result;
  reasonCode: ReasonCode;
  /** A person's decision: only while they hold the claim; their name and note stay with the item for staff. */
  reviewer?: { sub: string; username: string; note?: string };
  /** A person's decision is recorded with it: written together or not at all. */
  audit?: AuditRecord;
}

/** Completes `item` if it is still in review at the sequence seen (and, for a person, still theirs to decide). */
export async function completeReview(
  deps: { verifications: Pick<VerificationStore, "transition">; clock: Clock },
  item: VerificationItem,
  decision: ReviewDecision,
): Promise<TransitionOutcome> {
  const now = isoSeconds(deps.clock.now());
  const { reviewer } = decision;
  // A review because the issuer gave no answer kept the personal keys for asking again; no more.
  const forgotten = personalKeysForgotten(item);
  return deps.verifications.transition({
    id: item.verification_id,
    from: "in_review",
    to: "completed",
    now,
    set: {
      result: decision.result,
      reasons:
        decision.result === "verified"
          ? []
          : [
              {
                code: decision.reasonCode,
                message: decisionMessage(decision.reasonCode, {
                  ...item,
                  ...(reviewer ? { decided_by: reviewer.username } : {}),
                }),
              },
            ],
      review_decided_at: now,
      completed_at: now,
      ...(reviewer ? { decided_by: reviewer.username } : {}),
      ...(reviewer?.note ? { decision_note: reviewer.note } : {}),
      ...forgotten.set,
    },
    remove: forgotten.remove,
    expect: { sequence: item.sequence, ...(reviewer ? { claimHeldBy: reviewer.sub } : {}) },
    ...(decision.audit ? { audit: decision.audit } : {}),
  });
}

/**
 * A sandbox reference that asked for a review (`test_review_verified_`, `test_review_rejected_`)
 * is decided a few seconds after it went to review, as a reviewer would.
 */
export async function settleSandboxReview(
  deps: { verifications: Pick<VerificationStore, "transition">; clock: Clock; sleep: (ms: number) => Promise<void> },
  item: VerificationItem,
): Promise<void> {
  const forced = forcedOutcome(item.environment, item.external_reference_id);
  if (item.status !== "in_review" || forced?.outcome.kind !== "review") return;
  await deps.sleep(SANDBOX_REVIEW_DELAY_MS);
  await completeReview(deps, item, forced.outcome.decision);
}
