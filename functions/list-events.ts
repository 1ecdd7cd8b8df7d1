/** GET /v1/events: primary adapter -> use case `listEvents` -> secondary adapter (the events table's by-app index). */
import { LIST_EVENTS_FUNCTION } from "#shared/declarations/functions/list-events";
import { eventsQuerySchema } from "#shared/domain/searches";
import { parseQuery } from "#shared/http/requests";
import { routeHandler } from "#shared/http/route-handler";
import { listEvents } from "#shared/use-cases/public/list-events";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { eventStore } from "#shared/wiring/stores/events";
import { requestLog } from "#shared/wiring/stores/requests";

const config = functionConfig(LIST_EVENTS_FUNCTION);
const deps = { events: eventStore(config), clock };

export const handler = routeHandler({ log, requests: requestLog(config), clock }, async (event, caller) => ({
  status: 200,
  body: await listEvents(deps, caller.appId, parseQuery(event.queryStringParameters, eventsQuerySchema)),
}));
