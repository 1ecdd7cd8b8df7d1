/**
 * GET /backoffice/v1/reviews: primary adapter -> use case `reviewQueue` -> secondary adapters
 * (the verifications table's review-deadline index, the apps table for the apps' names).
 */
import { LIST_REVIEWS_FUNCTION } from "#shared/declarations/functions/list-reviews";
import { reviewsQuerySchema } from "#shared/domain/review";
import { parseQuery } from "#shared/http/requests";
import { staffRouteHandler } from "#shared/http/staff-route-handler";
import { reviewQueue } from "#shared/use-cases/review/queue";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(LIST_REVIEWS_FUNCTION);
const deps = {
  verifications: verificationStore(config),
  apps: appStore(config),
  clock,
  environment: config.environment(),
};

export const handler = staffRouteHandler(log, async (event) => ({
  status: 200,
  body: await reviewQueue(deps, parseQuery(event.queryStringParameters, reviewsQuerySchema)),
}));
