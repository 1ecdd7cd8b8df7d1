/**
 * TOKEN authorizer of the backoffice API: primary adapter (authorizer event) -> use case
 * `authorizeStaff` -> secondary adapter (the staff user pool). Its policy names every route
 * the caller's groups allow, because API Gateway caches it by token for all of them.
 */
import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { BACKOFFICE_ROUTES } from "#shared/declarations/routes";
import { authorizeStaff, type GuardedRoute } from "#shared/use-cases/review/authorize-staff";
import { functionConfig } from "#shared/wiring/config";
import { staffTokens } from "#shared/wiring/identity";

const config = functionConfig("staff-authorizer");
const deps = { tokens: staffTokens(config) };

/** `arn:...:api/stage/METHOD/path` of `route` in the API and stage of `methodArn`; a path parameter is any segment. */
function routeArn(methodArn: string, route: GuardedRoute): string {
  const [apiArn, stage] = methodArn.split("/");
  return `${apiArn}/${stage}/${route.method}${route.path.replace(/\{[^}]+\}/g, "*")}`;
}

export const handler = async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const decision = await authorizeStaff(deps, event.authorizationToken, BACKOFFICE_ROUTES);
  // The one message API Gateway turns into its 401 (UNAUTHORIZED) gateway response.
  if (decision.outcome === "unauthorized") throw new Error("Unauthorized");
  const { principal, routes } = decision;
  return {
    principalId: principal.sub,
    policyDocument: {
      Version: "2012-10-17",
      Statement:
        routes.length > 0
          ? [
              {
                Action: "execute-api:Invoke",
                Effect: "Allow",
                Resource: routes.map((route) => routeArn(event.methodArn, route)),
              },
            ]
          : [
              {
                Action: "execute-api:Invoke",
                Effect: "Deny",
                Resource: routeArn(event.methodArn, { method: "*", path: "/*" }),
              },
            ],
    },
    context: { sub: principal.sub, username: principal.username, groups: principal.groups.join(",") },
  };
};
