import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { VerificationNotFoundError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import type { StaffVerification } from "../../domain/responses/review.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { staffView } from "./staff-view.ts";

/** A verification as staff review it; reading its personal data is recorded in the audit trail. */
export async function inspectVerification(
  deps: {
    verifications: Pick<VerificationStore, "get">;
    documents: Pick<DocumentStore, "size">;
    apps: Pick<AppStore, "getApp">;
    audit: Pick<AuditTrail, "append">;
    clock: Clock;
  },
  context: AuditContext,
  verificationId: string,
): Promise<StaffVerification> {
  const item = isId("verification", verificationId) ? await deps.verifications.get(verificationId) : undefined;
  if (!item) throw new VerificationNotFoundError();
  await deps.audit.append(
    auditRecord(context, deps.clock.now(), {
      action: "verification.viewed",
      verification_id: item.verification_id,
      app_id: item.app_id,
    }),
  );
  return staffView(deps, item);
}
