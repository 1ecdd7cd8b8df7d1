/**
 * The audit sealer (every 5 minutes): primary adapter (schedule event) -> use case `sealAudit`
 * -> the audit table's records, the digests table and the KMS sealing key. A month that does not
 * check out is left open and counted (`AuditTrailBroken`, alarmed): `ops audit verify` names why.
 */
import { SEAL_AUDIT_FUNCTION } from "#shared/declarations/functions/seal-audit";
import { AUDIT_TRAIL_BROKEN_METRIC } from "#shared/declarations/metrics";
import { type SealOutcome, sealAudit } from "#shared/use-cases/audit/seal";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditSealing, auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(SEAL_AUDIT_FUNCTION);
const deps = { prints: auditTrail(config), ...auditSealing(config), clock };

export const handler = async (): Promise<Omit<SealOutcome, "findings"> & { findings: number }> => {
  const outcome = await sealAudit(deps);
  for (const finding of outcome.findings) {
    log.count(AUDIT_TRAIL_BROKEN_METRIC, config.environment(), "An audit month does not agree with its digests", {
      ...finding,
    });
  }
  return { ...outcome, findings: outcome.findings.length };
};
