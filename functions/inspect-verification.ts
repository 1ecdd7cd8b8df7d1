/**
 * GET /backoffice/v1/verifications/{verification_id}: primary adapter -> use case
 * `inspectVerification` -> secondary adapters (the verifications table, the uploads bucket,
 * the audit trail).
 */
import { INSPECT_VERIFICATION_FUNCTION } from "#shared/declarations/functions/inspect-verification";
import { staffRouteHandler } from "#shared/http/staff-route-handler";
import { inspectVerification } from "#shared/use-cases/review/inspect";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { documentStore } from "#shared/wiring/stores/documents";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(INSPECT_VERIFICATION_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = {
  verifications: verificationStore(config, audit),
  documents: documentStore(config),
  apps: appStore(config),
  audit,
  clock,
};

export const handler = staffRouteHandler(log, async (event, staff) => {
  const verification = await inspectVerification(deps, staff, event.pathParameters?.verification_id ?? "");
  // The entity tag a decision sends back in If-Match.
  return { status: 200, body: verification, headers: { ETag: `"${verification.sequence}"` } };
});
