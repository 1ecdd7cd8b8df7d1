/**
 * A TOKEN authorizer's answer: a policy naming every route the caller may call, because API
 * Gateway caches it by token for all of the API's routes.
 */
import type { APIGatewayAuthorizerResult } from "aws-lambda";

/** A route as a policy names it. */
interface PolicyRoute {
  method: string;
  path: string;
}

/** `arn:...:api/stage/METHOD/path` of `route` in the API and stage of `methodArn`; a path parameter is any segment. */
function routeArn(methodArn: string, route: PolicyRoute): string {
  const [apiArn, stage] = methodArn.split("/");
  return `${apiArn}/${stage}/${route.method}${route.path.replace(/\{[^}]+\}/g, "*")}`;
}

export function routesPolicy(
  methodArn: string,
  principalId: string,
  routes: readonly PolicyRoute[],
  context: Record<string, string>,
): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: {
      Version: "2012-10-17",
      Statement:
        routes.length > 0
          ? [
              {
                Action: "execute-api:Invoke",
                Effect: "Allow",
                Resource: routes.map((route) => routeArn(methodArn, route)),
              },
            ]
          : [
              {
                Action: "execute-api:Invoke",
                Effect: "Deny",
                Resource: routeArn(methodArn, { method: "*", path: "/*" }),
              },
            ],
    },
    context,
  };
}
