/** GET /portal/v1/apps: primary adapter -> use case `listMemberApps` -> secondary adapters (the organisation's apps and their keys). */
import { LIST_APPS_FUNCTION } from "#shared/declarations/functions/list-apps";
import { appsQuerySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { listMemberApps } from "#shared/use-cases/portal/apps";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(LIST_APPS_FUNCTION);
const deps = { organizations: organizationStore(config), apps: appStore(config), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await listMemberApps(deps, caller.member, parseQuery(event.queryStringParameters, appsQuerySchema)),
}));
