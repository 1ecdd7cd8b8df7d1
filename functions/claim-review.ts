/**
 * POST /backoffice/v1/reviews/{verification_id}/claim: primary adapter -> use case
 * `claimReview` -> secondary adapters (the verifications table, the audit trail).
 */
import { CLAIM_REVIEW_FUNCTION } from "#shared/declarations/functions/claim-review";
import { staffRouteHandler } from "#shared/http/staff-route-handler";
import { claimReview } from "#shared/use-cases/review/claim";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail } from "#shared/wiring/stores/audit";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(CLAIM_REVIEW_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { verifications: verificationStore(config, audit), audit, clock };

export const handler = staffRouteHandler(log, async (event, staff) => ({
  status: 200,
  body: await claimReview(deps, staff, event.pathParameters?.verification_id ?? ""),
}));
