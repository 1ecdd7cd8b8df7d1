/**
 * Erasure: a verification keeps nothing about the person. The document, its pinned copy and
 * the issuer's copy are deleted; the record keeps ids, status, result, reasons and times, with
 * `redacted_at`; the change stream then sends `verification.redacted` and rewrites the bodies
 * of the events already kept. The client's `DELETE` and the operators' erase command share it.
 */

import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { RefusedError, VerificationNotFoundError } from "../../domain/errors.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import { isoSeconds } from "../../domain/time.ts";
import {
  documentKey,
  evidenceKey,
  issuerCopyKey,
  toResource,
  type VerificationItem,
} from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { appVerification } from "./get-verification.ts";

export type ErasureDeps = {
  verifications: Pick<VerificationStore, "erase">;
  documents: Pick<DocumentStore, "delete">;
  clock: Clock;
};

/** What became of one verification asked to be erased. */
export type Erasure =
  | { outcome: "erased" | "already_erased"; item: VerificationItem }
  /** Processing or in review: erased once it ends (seconds for processing, the review window at most). */
  | { outcome: "in_progress"; item: VerificationItem };

/** How often a verification that keeps changing under an erasure is read again. */
const ATTEMPTS = 3;

/**
 * Erases `item` unless it is being processed or reviewed; an awaited upload ends as `expired`
 * with it. The objects go first, so a record that says erased never points at a document.
 */
export async function erase(deps: ErasureDeps, item: VerificationItem, by?: AuditContext): Promise<Erasure> {
  let current = item;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (current.redacted_at !== undefined) return { outcome: "already_erased", item: current };
    if (current.status === "processing" || current.status === "in_review")
      return { outcome: "in_progress", item: current };
    const id = current.verification_id;
    await Promise.all([documentKey(id), evidenceKey(id), issuerCopyKey(id)].map((key) => deps.documents.delete(key)));
    const at = deps.clock.now();
    const written = await deps.verifications.erase({
      id,
      sequence: current.sequence,
      now: isoSeconds(at),
      expire: current.status === "awaiting_upload",
      ...(by
        ? { audit: auditRecord(by, at, { action: "verification.erased", verification_id: id, app_id: current.app_id }) }
        : {}),
    });
    if (written.applied) return { outcome: "erased", item: written.item };
    if (!written.item) throw new VerificationNotFoundError();
    current = written.item;
  }
  throw new RefusedError("verification_in_progress", "The verification kept changing; retry the erasure", {
    retryAfterSeconds: 1,
  });
}

/**
 * `DELETE /v1/verifications/{id}`: the app's own verification, erased now; a second call
 * answers the same erased resource. Another app's, unknown and malformed ids read not found.
 */
export async function eraseVerification(
  deps: ErasureDeps & { verifications: Pick<VerificationStore, "get" | "erase"> },
  input: { appId: string; verificationId: string },
): Promise<VerificationResource> {
  const erasure = await erase(deps, await appVerification(deps.verifications, input));
  if (erasure.outcome === "in_progress") {
    const processing = erasure.item.status === "processing";
    throw new RefusedError(
      "verification_in_progress",
      processing
        ? "The verification is being processed; erase it once it ends (in seconds, or up to 15 minutes while the issuer is asked again)"
        : "The verification is in review; erase it once the review ends (at the latest when its window closes)",
      processing ? { retryAfterSeconds: 5 } : {},
    );
  }
  const now = isoSeconds(deps.clock.now());
  return toResource(erasure.item, now);
}

/** How many verifications of each outcome an erasure by app or reference reached. */
export interface ErasureTally {
  erased: number;
  already_erased: number;
  /** Processing or in review: erase them again once they have ended. */
  in_progress: string[];
}

/**
 * The operators' erasure: every verification of an app, or of one of its references, erased
 * as `DELETE` erases one; those still processing or in review are named, to erase later.
 */
export async function eraseMatching(
  deps: ErasureDeps & { verifications: Pick<VerificationStore, "listForApp" | "erase"> },
  match: { appId: string; reference?: string },
  /** The operator erasing: each erasure is written with the record of it. */
  by?: AuditContext,
): Promise<ErasureTally> {
  const tally: ErasureTally = { erased: 0, already_erased: 0, in_progress: [] };
  const now = isoSeconds(deps.clock.now());
  let after: Parameters<VerificationStore["listForApp"]>[2];
  do {
    const page = await deps.verifications.listForApp(
      { appId: match.appId, reference: match.reference, now },
      100,
      after,
    );
    for (const item of page.items) {
      const erasure = await erase(deps, item, by);
      if (erasure.outcome === "in_progress") tally.in_progress.push(item.verification_id);
      else tally[erasure.outcome] += 1;
    }
    after = page.last;
  } while (after);
  return tally;
}
