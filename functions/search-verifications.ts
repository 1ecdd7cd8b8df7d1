/** GET /portal/v1/verifications: primary adapter -> use case `searchMemberVerifications` -> the verifications table's indexes, the audit trail. */
import { SEARCH_VERIFICATIONS_FUNCTION } from "#shared/declarations/functions/search-verifications";
import { portalSearchQuerySchema } from "#shared/domain/searches";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { searchMemberVerifications } from "#shared/use-cases/portal/verifications";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(SEARCH_VERIFICATIONS_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { apps: appStore(config, audit), verifications: verificationStore(config, audit), audit, clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await searchMemberVerifications(deps, caller, parseQuery(event.queryStringParameters, portalSearchQuerySchema)),
}));
