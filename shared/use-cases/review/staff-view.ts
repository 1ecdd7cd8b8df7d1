import type { StaffVerification } from "../../domain/responses/review.ts";
import { currentClaim, type DocumentCopy, issuerRecheckOf } from "../../domain/review.ts";
import { isoSeconds } from "../../domain/time.ts";
import { evidenceKey, toResource, type VerificationItem } from "../../domain/verification.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import { appNameOf } from "./app-name.ts";

/** The key of each copy a reviewer can look at, when the verification has one. */
export function copyKey(item: VerificationItem, copy: DocumentCopy): string | undefined {
  return copy === "upload" ? evidenceKey(item.verification_id) : item.issuer_copy_key;
}

/**
 * What staff see of `item`: the customer's resource, its app (by id and name), its claim, its decision, which
 * copies exist and the keys the checks read (the identity number masked; never in the customer's
 * resource).
 */
export async function staffView(
  deps: { documents: Pick<DocumentStore, "size">; apps: Pick<AppStore, "getApp">; clock: Clock },
  item: VerificationItem,
): Promise<StaffVerification> {
  const now = isoSeconds(deps.clock.now());
  const exists = async (copy: DocumentCopy) => {
    const key = copyKey(item, copy);
    return key !== undefined && (await deps.documents.size(key)) !== undefined;
  };
  const [upload, issuer, appName] = await Promise.all([
    exists("upload"),
    exists("issuer"),
    appNameOf(deps.apps, item.app_id),
  ]);
  return {
    ...toResource(item, now),
    app_id: item.app_id,
    app_name: appName,
    copies: { upload, issuer },
    claim: currentClaim(item, now),
    issuer_recheck: issuerRecheckOf(item, now),
    decision: item.decided_by ? { decided_by: item.decided_by, note: item.decision_note ?? null } : null,
    document_keys: item.document_keys ?? null,
    text_differences: item.text_differences ?? null,
  };
}
