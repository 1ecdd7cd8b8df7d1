/** GET /portal/v1/me: primary adapter -> use case `whoAmI` -> secondary adapter (the organisation). */
import { WHO_AM_I_FUNCTION } from "#shared/declarations/functions/who-am-i";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { whoAmI } from "#shared/use-cases/portal/me";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(WHO_AM_I_FUNCTION);
const deps = { organizations: organizationStore(config) };

export const handler = portalRouteHandler(log, async (_event, caller) => ({
  status: 200,
  body: await whoAmI(deps, caller.member),
}));
