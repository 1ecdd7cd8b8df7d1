import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { NotFoundError, VerificationNotFoundError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import { DOCUMENT_LINK_SECONDS, type DocumentCopy } from "../../domain/review.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { copyKey } from "./staff-view.ts";

/** A short-lived link to one copy of a verification's document, each view recorded. */
export async function viewDocument(
  deps: {
    verifications: Pick<VerificationStore, "get">;
    documents: Pick<DocumentStore, "size" | "presignGet">;
    audit: Pick<AuditTrail, "append">;
    clock: Clock;
  },
  context: AuditContext,
  input: { verificationId: string; copy: DocumentCopy },
): Promise<{ copy: DocumentCopy; url: string; expires_at: string; media_type: string }> {
  const item = isId("verification", input.verificationId)
    ? await deps.verifications.get(input.verificationId)
    : undefined;
  if (!item) throw new VerificationNotFoundError();
  const key = copyKey(item, input.copy);
  if (key === undefined || (await deps.documents.size(key)) === undefined) {
    throw new NotFoundError(
      "document_not_found",
      input.copy === "upload"
        ? "No confirmed upload is kept for this verification"
        : "The checks kept no issuer's copy for this verification",
    );
  }
  const now = deps.clock.now();
  await deps.audit.append(
    auditRecord(context, now, {
      action: "document.viewed",
      verification_id: item.verification_id,
      app_id: item.app_id,
      detail: { copy: input.copy },
    }),
  );
  return {
    copy: input.copy,
    url: await deps.documents.presignGet(key, now, DOCUMENT_LINK_SECONDS),
    expires_at: isoSeconds(addSeconds(now, DOCUMENT_LINK_SECONDS)),
    media_type: input.copy === "upload" ? (item.media_type ?? "application/octet-stream") : "application/pdf",
  };
}
