/**
 * TOKEN authorizer of the backoffice API: primary adapter (authorizer event) -> use case
 * `authorizeStaff` -> secondary adapter (the staff user pool). Its policy names every route
 * the caller's groups allow, because API Gateway caches it by token for all of them.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { BACKOFFICE_ROUTES } from "#shared/declarations/backoffice-api";
import { STAFF_AUTHORIZER_FUNCTION } from "#shared/declarations/functions/staff-authorizer";
import { routesPolicy } from "#shared/http/authorizer-policy";
import { authorizeStaff } from "#shared/use-cases/review/authorize-staff";
import { functionConfig } from "#shared/wiring/config";
import { poolTokens } from "#shared/wiring/identity";

const config = functionConfig(STAFF_AUTHORIZER_FUNCTION);
const deps = { tokens: poolTokens(config, "staff") };

export const handler = async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const decision = await authorizeStaff(deps, event.authorizationToken, BACKOFFICE_ROUTES);
  // The one message API Gateway turns into its 401 (UNAUTHORIZED) gateway response.
  if (decision.outcome === "unauthorized") throw new Error("Unauthorized");
  const { principal, routes } = decision;
  return routesPolicy(event.methodArn, principal.sub, routes, {
    sub: principal.sub,
    username: principal.username,
    groups: principal.groups.join(","),
  });
};
