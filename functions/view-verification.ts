/** GET /portal/v1/verifications/{verification_id}: primary adapter -> use case `viewMemberVerification` -> the verifications table, the audit trail. */
import { VIEW_VERIFICATION_FUNCTION } from "#shared/declarations/functions/view-verification";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { viewMemberVerification } from "#shared/use-cases/portal/verifications";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(VIEW_VERIFICATION_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { apps: appStore(config, audit), verifications: verificationStore(config, audit), audit, clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await viewMemberVerification(deps, caller, event.pathParameters?.verification_id ?? ""),
}));
