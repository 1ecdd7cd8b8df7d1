/** GET /portal/v1/apps/{app_id}/events: primary adapter -> use case `memberAppEvents` -> the events table (the app's events and each one's attempts), the audit trail. */
import { LIST_APP_EVENTS_FUNCTION } from "#shared/declarations/functions/list-app-events";
import { appEventsQuerySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { memberAppEvents } from "#shared/use-cases/portal/events";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { eventStore } from "#shared/wiring/stores/events";

const config = functionConfig(LIST_APP_EVENTS_FUNCTION);
const deps = { apps: appStore(config), events: eventStore(config), audit: auditTrail(config), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await memberAppEvents(
    deps,
    caller,
    event.pathParameters?.app_id ?? "",
    parseQuery(event.queryStringParameters, appEventsQuerySchema),
  ),
}));
