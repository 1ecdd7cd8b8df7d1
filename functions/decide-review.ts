/**
 * POST /backoffice/v1/reviews/{verification_id}/decision: primary adapter -> use case
 * `decideReview` -> secondary adapters (the verifications table, the uploads bucket, the audit
 * trail). The change stream sends the webhook, as for every completion.
 */
import { DECIDE_REVIEW_FUNCTION } from "#shared/declarations/functions/decide-review";
import { reviewDecisionSchema } from "#shared/domain/review";
import { readJsonBody } from "#shared/http/requests";
import { header } from "#shared/http/responses";
import { staffRouteHandler } from "#shared/http/staff-route-handler";
import { decideReview } from "#shared/use-cases/review/decide";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { documentStore } from "#shared/wiring/stores/documents";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(DECIDE_REVIEW_FUNCTION);
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
  const decision = readJsonBody(event, reviewDecisionSchema);
  const verification = await decideReview(deps, staff, {
    verificationId: event.pathParameters?.verification_id ?? "",
    ifMatch: header(event, "If-Match"),
    decision,
  });
  return { status: 200, body: verification, headers: { ETag: `"${verification.sequence}"` } };
});
