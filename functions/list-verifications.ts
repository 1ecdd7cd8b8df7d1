/**
 * GET /v1/verifications: primary adapter -> use case `listVerifications` -> secondary adapter
 * (the verifications table's by-app and by-reference indexes).
 */
import { LIST_VERIFICATIONS_FUNCTION } from "#shared/declarations/functions/list-verifications";
import { verificationListQuerySchema } from "#shared/domain/searches";
import { parseQuery } from "#shared/http/requests";
import { routeHandler } from "#shared/http/route-handler";
import { listVerifications } from "#shared/use-cases/public/list-verifications";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { requestLog } from "#shared/wiring/stores/requests";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(LIST_VERIFICATIONS_FUNCTION);
const deps = { verifications: verificationStore(config), clock };

export const handler = routeHandler({ log, requests: requestLog(config), clock }, async (event, caller) => ({
  status: 200,
  body: await listVerifications(
    deps,
    caller.appId,
    parseQuery(event.queryStringParameters, verificationListQuerySchema),
  ),
}));
