/**
 * REQUEST authorizer: primary adapter (authorizer event) -> use case `authorize` ->
 * secondary adapter (apps table: the key's item, and its `last_used_at` once a minute). Its policy covers every route, because API Gateway caches
 * it by the key for all of them.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { AUTHORIZER_FUNCTION } from "#shared/declarations/functions/authorizer";
import { usageIdentifier } from "#shared/domain/apps";
import { header } from "#shared/http/responses";
import { authorize } from "#shared/use-cases/public/authorize";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { keyLookup } from "#shared/wiring/stores/keys";

const config = functionConfig(AUTHORIZER_FUNCTION);
const deps = { apps: keyLookup(config), environment: config.environment(), clock, log };

/** `arn:aws:execute-api:region:account:api/stage/METHOD/path` -> every method and path of the stage. */
function everyRouteOf(methodArn: string): string {
  const [apiArn, stage] = methodArn.split("/");
  return `${apiArn}/${stage}/*`;
}

function policy(principalId: string, effect: "Allow" | "Deny", methodArn: string): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: {
      Version: "2012-10-17",
      Statement: [{ Action: "execute-api:Invoke", Effect: effect, Resource: everyRouteOf(methodArn) }],
    },
  };
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const decision = await authorize(deps, header(event, AUTHORIZER_FUNCTION.authorizer.identityHeader));
  switch (decision.outcome) {
    case "unauthorized":
      // The one message API Gateway turns into its 401 (UNAUTHORIZED) gateway response.
      throw new Error("Unauthorized");
    case "deny":
      return policy(decision.appId, "Deny", event.methodArn);
    case "allow":
      return {
        ...policy(decision.appId, "Allow", event.methodArn),
        context: { appId: decision.appId, environment: decision.environment },
        // The app's own bucket in the stage's usage plan: its requests are throttled on their own.
        usageIdentifierKey: usageIdentifier(decision.appId),
      };
  }
};
