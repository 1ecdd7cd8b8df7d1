/** GET /portal/v1/usage: primary adapter -> use case `readUsage` -> secondary adapters (the organisation's apps, the usage counters). */
import { usageQuerySchema } from "#shared/domain/portal";
import { parseQuery } from "#shared/http/requests";
import { portalRouteHandler } from "#shared/http/route-handler";
import { readUsage } from "#shared/use-cases/portal/usage";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore, organizationStore, usageStore } from "#shared/wiring/stores";

const config = functionConfig("read-usage");
const deps = { apps: appStore(config), organizations: organizationStore(config), usage: usageStore(config), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await readUsage(deps, caller.member, parseQuery(event.queryStringParameters, usageQuerySchema)),
}));
