/**
 * GET /backoffice/v1/verifications/{verification_id}: primary adapter -> use case
 * `inspectVerification` -> secondary adapters (the verifications table, the uploads bucket,
 * the audit trail).
 */
import { staffRouteHandler } from "#shared/http/route-handler";
import { inspectVerification } from "#shared/use-cases/review/inspect";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail, documentStore, verificationStore } from "#shared/wiring/stores";

const config = functionConfig("inspect-verification");
const deps = {
  verifications: verificationStore(config),
  documents: documentStore(config),
  audit: auditTrail(config),
  clock,
};

export const handler = staffRouteHandler(log, async (event, staff) => {
  const verification = await inspectVerification(deps, staff, event.pathParameters?.verification_id ?? "");
  // The entity tag a decision sends back in If-Match.
  return { status: 200, body: verification, headers: { ETag: `"${verification.sequence}"` } };
});
