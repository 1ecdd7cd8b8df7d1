/** The audit records of what a portal caller did or read in their organisation. */
import { type AuditEntry, auditRecord } from "../../domain/audit.ts";
import type { PortalCaller } from "../../domain/organizations.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";

/** Appends the record of what the caller did in their organisation. */
export async function recordAction(
  deps: { audit: Pick<AuditTrail, "append">; clock: Clock },
  caller: PortalCaller,
  entry: Omit<AuditEntry, "actor" | "request_id" | "source_ip" | "organization_id">,
): Promise<void> {
  await deps.audit.append(auditRecord(caller.audit, deps.clock.now(), entry));
}

/**
 * Records a read of verifications: one record per verification it showed, each naming it (so a
 * verification's own trail lists every read that showed it), or one record when it showed none.
 */
export async function recordRead(
  deps: { audit: Pick<AuditTrail, "appendAll">; clock: Clock },
  caller: PortalCaller,
  entry: Omit<AuditEntry, "actor" | "request_id" | "source_ip" | "organization_id" | "verification_id">,
  shown: readonly { verification_id: string; app_id: string }[],
): Promise<void> {
  const now = deps.clock.now();
  const records = shown.length
    ? shown.map(({ verification_id, app_id }) => auditRecord(caller.audit, now, { ...entry, app_id, verification_id }))
    : [auditRecord(caller.audit, now, entry)];
  await deps.audit.appendAll(records);
}
