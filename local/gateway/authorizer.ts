/**
 * An authorizer (REQUEST or TOKEN) as API Gateway runs it: the identity source, the result cache,
 * the policy evaluation, and the gateway response for a request it does not let through.
 */
import type http from "node:http";
import type {
  APIGatewayAuthorizerResult,
  APIGatewayRequestAuthorizerEvent,
  APIGatewayTokenAuthorizerEvent,
} from "aws-lambda";
import type { GatewayResponseType } from "#shared/declarations/gateway-responses";

export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;
export type TokenAuthorizerHandler = (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** The authorizer's result for a request let through, or the gateway response for one that is not. */
export type Authorization = APIGatewayAuthorizerResult | GatewayResponseType;

/** What an authorizer is called with: a REQUEST event, or a TOKEN event. */
type AuthorizerEvent = APIGatewayRequestAuthorizerEvent | APIGatewayTokenAuthorizerEvent;

/** The authorizer step: an event and its identity source in, an authorization out. */
export type Authorize<Event extends AuthorizerEvent> = (
  event: Event,
  identity: string | undefined,
) => Promise<Authorization>;

/** The identity source the authorizer is cached on: its header, undefined when absent or empty. */
export function identitySource(req: http.IncomingMessage, header: string): string | undefined {
  const identity = req.headers[header.toLowerCase()];
  return typeof identity === "string" && identity !== "" ? identity : undefined;
}

/** An IAM resource pattern against an ARN: `*` any run of characters, `?` any one. */
function wildcardMatches(pattern: string, value: string): boolean {
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${regex}$`).test(value);
}

/** IAM evaluation as API Gateway applies it to an authorizer's policy: explicit Deny wins, then Allow. */
function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const matching = result.policyDocument.Statement.filter((statement) => {
    const resources = "Resource" in statement ? [statement.Resource].flat() : [];
    return resources.some((resource) => wildcardMatches(String(resource), methodArn));
  });
  return !matching.some((s) => s.Effect === "Deny") && matching.some((s) => s.Effect === "Allow");
}

/** The gateway response for an authorizer that threw: its `Unauthorized` rejects the key, anything else is a failure. */
function authorizerFailure(error: unknown): GatewayResponseType {
  return error instanceof Error && error.message === "Unauthorized" ? "UNAUTHORIZED" : "AUTHORIZER_FAILURE";
}

/**
 * The authorizer step over `authorizer`, with a result cache per identity source that lasts
 * the authorizer's TTL; only results are cached, never a throw.
 */
export function cachedAuthorizer<Event extends AuthorizerEvent>(
  authorizer: (event: Event) => Promise<APIGatewayAuthorizerResult>,
  cacheTtlSeconds: number,
): Authorize<Event> {
  const cache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();

  /** The cached result while it is fresh, else the authorizer's, which is then cached. */
  async function resultFor(event: Event, identity: string): Promise<APIGatewayAuthorizerResult> {
    const cached = cache.get(identity);
    if (cached && cached.expires > Date.now()) return cached.result;
    const result = await authorizer(event);
    cache.set(identity, { result, expires: Date.now() + cacheTtlSeconds * 1000 });
    return result;
  }

  return async (event, identity) => {
    if (identity === undefined) return "UNAUTHORIZED";
    let result: APIGatewayAuthorizerResult;
    try {
      result = await resultFor(event, identity);
    } catch (error) {
      return authorizerFailure(error);
    }
    return policyAllows(result, event.methodArn) ? result : "ACCESS_DENIED";
  };
}
