/**
 * A reviewer asks the issuer again for a verification in review because it gave no answer: only
 * the claim's holder, at most once an item every `RECHECK_GAP_SECONDS`, recorded in the audit
 * trail with the change. The issuer queue's reader then asks and runs the same checks on the new
 * answer: one they can decide completes the verification; otherwise it stays in review, revised.
 */
import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { RefusedError, VerificationNotFoundError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import { recheckAllowedFrom, rechecked } from "../../domain/issuer.ts";
import type { StaffVerification } from "../../domain/responses/review.ts";
import { currentClaim } from "../../domain/review.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { VerificationItem } from "../../domain/verification.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { IssuerQueue } from "../../ports/issuer-queue.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { refusalFor } from "./claim.ts";
import { staffView } from "./staff-view.ts";

/** Why `sub` cannot ask the issuer again for `item` at `now`; undefined when they can. */
function askingRefusal(
  item: VerificationItem | undefined,
  sub: string,
  now: string,
  queue: IssuerQueue | undefined,
): Error | undefined {
  const refused = refusalFor(item, sub, now);
  if (refused || !item) return refused ?? new VerificationNotFoundError();
  if (!currentClaim(item, now)) {
    return new RefusedError(
      "review_not_claimed",
      "Claim the review before asking the issuer again: you hold no claim on it now",
    );
  }
  const state = item.issuer;
  if (item.review_reason !== "issuer_unavailable" || !state || !queue) {
    return new RefusedError(
      "issuer_not_askable",
      queue
        ? "Only a verification in review because the issuer gave no answer when it was asked can ask it again"
        : "No issuer is configured for this environment",
    );
  }
  // Also while that asking's answer is awaited: a lookup lost on its way is asked again after the gap.
  const allowed = recheckAllowedFrom(state);
  if (allowed !== undefined && allowed > now) {
    return new RefusedError("issuer_asked_recently", `The issuer was asked again recently: ask again from ${allowed}`);
  }
  return undefined;
}

export async function askIssuerAgain(
  deps: {
    verifications: Pick<VerificationStore, "get" | "askIssuerAgain">;
    /** The issuer queue; none when the environment asks no issuer. */
    queue: IssuerQueue | undefined;
    documents: Pick<DocumentStore, "size">;
    apps: Pick<AppStore, "getApp">;
    clock: Clock;
  },
  context: AuditContext,
  verificationId: string,
): Promise<StaffVerification> {
  if (!isId("verification", verificationId)) throw new VerificationNotFoundError();
  const now = deps.clock.now();
  const at = isoSeconds(now);
  const sub = context.actor.sub;
  const item = await deps.verifications.get(verificationId);
  const refused = askingRefusal(item, sub, at, deps.queue);
  if (refused || !item?.issuer || !deps.queue) throw refused ?? new VerificationNotFoundError();
  const state = rechecked(item.issuer, now, context.actor.username);
  const outcome = await deps.verifications.askIssuerAgain({
    id: verificationId,
    sequence: item.sequence,
    holder: sub,
    now: at,
    seen: item.issuer,
    state,
    audit: auditRecord(context, now, {
      action: "review.issuer_asked",
      verification_id: item.verification_id,
      app_id: item.app_id,
    }),
  });
  if (!outcome.applied) {
    throw (
      askingRefusal(outcome.item, sub, at, deps.queue) ??
      new RefusedError("sequence_mismatch", "The verification changed while the issuer was being asked: read it again")
    );
  }
  // The lookup's next attempt: the queue's reader takes it, asks and runs the checks on the answer.
  await deps.queue.send({ verification_id: verificationId, attempt: state.attempts + 1 }, 0);
  return staffView(deps, outcome.item);
}
