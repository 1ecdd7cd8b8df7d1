/** GET /portal/v1/apps/{app_id}/requests: primary adapter -> use case `memberAppRequests` -> the apps table (the app), the request log by app. */
import { LIST_APP_REQUESTS_FUNCTION } from "#shared/declarations/functions/list-app-requests";
import { appRequestsQuerySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { memberAppRequests } from "#shared/use-cases/portal/requests";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { requestHistory } from "#shared/wiring/stores/requests";

const config = functionConfig(LIST_APP_REQUESTS_FUNCTION);
const deps = { apps: appStore(config), requests: requestHistory(config), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await memberAppRequests(
    deps,
    caller,
    event.pathParameters?.app_id ?? "",
    parseQuery(event.queryStringParameters, appRequestsQuerySchema),
  ),
}));
