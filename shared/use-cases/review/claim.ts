import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { RefusedError, VerificationNotFoundError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import { claimExpiry, currentClaim } from "../../domain/review.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

/** Why a reviewer cannot act on `item` now: gone, out of review, or claimed by someone else. */
export function refusalFor(item: VerificationItem | undefined, sub: string, now: string): Error | undefined {
  if (!item) return new VerificationNotFoundError();
  if (item.status !== "in_review") {
    return new RefusedError("verification_not_in_review", `The verification is ${item.status}, not in review`);
  }
  const claim = currentClaim(item, now);
  if (claim && item.claimed_by_sub !== sub) {
    return new RefusedError("review_claimed", `${claim.claimed_by} holds the claim until ${claim.expires_at}`);
  }
  return undefined;
}

/**
 * A 15-minute lease on a review for the caller: one conditional write, with its audit record, so
 * of two reviewers claiming at once exactly one wins and is recorded; the holder claiming again
 * renews it.
 */
export async function claimReview(
  deps: { verifications: Pick<VerificationStore, "get" | "claimReview">; clock: Clock },
  context: AuditContext,
  verificationId: string,
): Promise<{ verification_id: string; claimed_by: string; expires_at: string }> {
  if (!isId("verification", verificationId)) throw new VerificationNotFoundError();
  const now = deps.clock.now();
  const seen = await deps.verifications.get(verificationId);
  const refused = refusalFor(seen, context.actor.sub, isoSeconds(now));
  if (refused || !seen) throw refused ?? new VerificationNotFoundError();
  const expiresAt = claimExpiry(now);
  const outcome = await deps.verifications.claimReview({
    id: verificationId,
    holder: { sub: context.actor.sub, username: context.actor.username },
    now: isoSeconds(now),
    expiresAt,
    audit: auditRecord(context, now, {
      action: "review.claimed",
      verification_id: seen.verification_id,
      app_id: seen.app_id,
    }),
  });
  if (!outcome.applied) {
    throw refusalFor(outcome.item, context.actor.sub, isoSeconds(now)) ?? new Error("The claim failed its condition");
  }
  return { verification_id: verificationId, claimed_by: context.actor.username, expires_at: expiresAt };
}
