/** GET /portal/v1/usage: primary adapter -> use case `readUsage` -> secondary adapters (the organisation's apps, the usage counters). */
import { READ_USAGE_FUNCTION } from "#shared/declarations/functions/read-usage";
import { usageQuerySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { readUsage } from "#shared/use-cases/portal/usage";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { organizationStore } from "#shared/wiring/stores/organizations";
import { usageStore } from "#shared/wiring/stores/usage";

const config = functionConfig(READ_USAGE_FUNCTION);
const deps = { apps: appStore(config), organizations: organizationStore(config), usage: usageStore(config), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await readUsage(deps, caller.member, parseQuery(event.queryStringParameters, usageQuerySchema)),
}));
