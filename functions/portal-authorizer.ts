/**
 * TOKEN authorizer of the portal API: primary adapter (authorizer event) -> use case
 * `authorizeMember` -> secondary adapters (the customer user pool, the caller's membership).
 * Its policy names every route the member's role allows; the context carries the organisation
 * to every handler.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { PORTAL_AUTHORIZER_FUNCTION } from "#shared/declarations/functions/portal-authorizer";
import { PORTAL_ROUTES } from "#shared/declarations/portal-api";
import { routesPolicy } from "#shared/http/authorizer-policy";
import { authorizeMember } from "#shared/use-cases/portal/authorize-member";
import { functionConfig } from "#shared/wiring/config";
import { poolTokens } from "#shared/wiring/identity";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(PORTAL_AUTHORIZER_FUNCTION);
const deps = { tokens: poolTokens(config, "portal"), organizations: organizationStore(config) };

export const handler = async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const decision = await authorizeMember(deps, event.authorizationToken, PORTAL_ROUTES);
  // The one message API Gateway turns into its 401 (UNAUTHORIZED) gateway response.
  if (decision.outcome === "unauthorized") throw new Error("Unauthorized");
  const { member, routes } = decision;
  return routesPolicy(
    event.methodArn,
    decision.sub,
    routes,
    member
      ? { sub: member.sub, username: member.username, organizationId: member.organizationId, role: member.role }
      : {},
  );
};
