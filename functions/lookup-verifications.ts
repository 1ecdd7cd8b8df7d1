/** GET /portal/v1/lookup: primary adapter -> use case `lookupVerifications` -> the organisation's apps, the verifications table, the public API's request log, the audit trail. */
import { LOOKUP_VERIFICATIONS_FUNCTION } from "#shared/declarations/functions/lookup-verifications";
import { lookupQuerySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { lookupVerifications } from "#shared/use-cases/portal/lookup";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail } from "#shared/wiring/stores/audit";
import { organizationStore } from "#shared/wiring/stores/organizations";
import { requestLog } from "#shared/wiring/stores/requests";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(LOOKUP_VERIFICATIONS_FUNCTION);
const deps = {
  organizations: organizationStore(config),
  verifications: verificationStore(config),
  requests: requestLog(config),
  audit: auditTrail(config),
  clock,
};

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await lookupVerifications(deps, caller, parseQuery(event.queryStringParameters, lookupQuerySchema)),
}));
