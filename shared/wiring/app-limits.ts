import { APIGatewayClient } from "@aws-sdk/client-api-gateway";
import { apiGatewayAppLimits } from "../adapters/apigateway-app-limits.ts";
import { readSettings } from "../declarations/settings.ts";
import type { AppLimits } from "../ports/app-limits.ts";
import type { FunctionConfig } from "./config.ts";

/** The apps' request buckets: keys of the usage plan `usagePlanId`, reached through `apiGateway`. */
export const appLimitsOn = (apiGateway: APIGatewayClient, usagePlanId: string): AppLimits =>
  apiGatewayAppLimits(apiGateway, usagePlanId);

/** The apps' request buckets in the stage's usage plan (`USAGE_PLAN_ID`). Only the functions that create apps load it. */
export function appLimits(config: FunctionConfig): AppLimits {
  const endpoint = readSettings(["APIGATEWAY_ENDPOINT"]).APIGATEWAY_ENDPOINT;
  return appLimitsOn(new APIGatewayClient(endpoint ? { endpoint } : {}), config.setting("USAGE_PLAN_ID"));
}
