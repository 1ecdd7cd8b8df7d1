/** GET /portal/v1/apps/{app_id}/deliveries: primary adapter -> use case `memberDeliveries` -> secondary adapter (the events table's attempts index). */
import { LIST_DELIVERIES_FUNCTION } from "#shared/declarations/functions/list-deliveries";
import { deliveriesQuerySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { memberDeliveries } from "#shared/use-cases/portal/webhooks";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { eventStore } from "#shared/wiring/stores/events";

const config = functionConfig(LIST_DELIVERIES_FUNCTION);
const deps = { apps: appStore(config), events: eventStore(config) };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await memberDeliveries(
    deps,
    caller.member,
    event.pathParameters?.app_id ?? "",
    parseQuery(event.queryStringParameters, deliveriesQuerySchema),
  ),
}));
