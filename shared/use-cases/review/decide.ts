import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { InvalidInputError, RefusedError, VerificationNotFoundError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import type { StaffVerification } from "../../domain/responses/review.ts";
import { currentClaim, parseIfMatch, type ReviewDecisionBody } from "../../domain/review.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { VerificationItem } from "../../domain/verification.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { refusalFor } from "./claim.ts";
import { completeReview } from "./complete.ts";
import { staffView } from "./staff-view.ts";

/** Why the caller's decision on `item` cannot apply: the item moved on, or the caller holds no claim. */
function decisionRefusal(item: VerificationItem | undefined, sub: string, sequence: number, now: string): Error {
  const refusal = refusalFor(item, sub, now);
  if (refusal || !item) return refusal ?? new VerificationNotFoundError();
  if (item.sequence !== sequence) {
    return new RefusedError(
      "sequence_mismatch",
      `The verification is at sequence ${item.sequence}, not ${sequence}: read it again before deciding`,
    );
  }
  if (!currentClaim(item, now)) {
    return new RefusedError("review_not_claimed", "Claim the review before deciding it: you hold no claim on it now");
  }
  return new Error("The decision failed its condition");
}

/**
 * A reviewer's decision: only from the claim holder, only on the sequence they read
 * (`If-Match`), through the same state machine as every other change, so the change stream
 * sends its webhook as for any completion.
 */
export async function decideReview(
  deps: {
    verifications: Pick<VerificationStore, "get" | "transition">;
    documents: Pick<DocumentStore, "size">;
    apps: Pick<AppStore, "getApp">;
    clock: Clock;
  },
  context: AuditContext,
  input: { verificationId: string; ifMatch: string | undefined; decision: ReviewDecisionBody },
): Promise<StaffVerification> {
  const sequence = input.ifMatch === undefined ? undefined : parseIfMatch(input.ifMatch);
  if (sequence === undefined) {
    throw new InvalidInputError(
      "precondition_required",
      'Send If-Match: "<sequence>" with the sequence of the verification you reviewed (its ETag)',
    );
  }
  if (!isId("verification", input.verificationId)) throw new VerificationNotFoundError();
  const now = deps.clock.now();
  const item = await deps.verifications.get(input.verificationId);
  const sub = context.actor.sub;
  if (item?.status !== "in_review" || item.sequence !== sequence || item.claimed_by_sub !== sub) {
    throw decisionRefusal(item, sub, sequence, isoSeconds(now));
  }
  const { decision } = input;
  const reasonCode = decision.reason_code ?? "verified";
  const outcome = await completeReview(deps, item, {
    result: decision.result,
    reasonCode,
    reviewer: { sub, username: context.actor.username, note: decision.note },
    audit: auditRecord(context, now, {
      action: "review.decided",
      verification_id: item.verification_id,
      app_id: item.app_id,
      detail: { result: decision.result, reason_code: reasonCode },
    }),
  });
  if (!outcome.applied) throw decisionRefusal(outcome.item, sub, sequence, isoSeconds(now));
  return staffView(deps, outcome.item);
}
