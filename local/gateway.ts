/**
 * API Gateway on one machine, one REST API per server: the API's shared route table, its
 * authorizer (REQUEST or TOKEN) with its cache, the same proxy events and the same gateway
 * responses as the deployed stack.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import { EDGE_RESPONSES, EDGE_WINDOW_SECONDS } from "#shared/declarations/edge";
import type { GatewayResponseType } from "#shared/declarations/gateway-responses";
import {
  APIS,
  type ApiDefinition,
  type ApiName,
  type RouteDefinition,
  type Throttle,
} from "#shared/declarations/routes";
import { referenceResponse } from "../openapi/reference.ts";
import {
  type Authorization,
  type AuthorizerHandler,
  cachedAuthorizer,
  identitySource,
  type TokenAuthorizerHandler,
} from "./gateway/authorizer.ts";
import {
  authorizerEvent,
  lambdaContext,
  proxyEvent,
  type RequestFields,
  readBody,
  requestFields,
  requestTarget,
} from "./gateway/events.ts";
import { gatewayResponse, methodNotAllowedResponse, writeAccessLog, writeResponse } from "./gateway/responses.ts";
import { allowedMethods, compileRoutes, matchRoute, type RouteTable } from "./gateway/routes.ts";
import { loopbackHostsOnly } from "./loopback.ts";

export type { AuthorizerHandler, TokenAuthorizerHandler } from "./gateway/authorizer.ts";
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface GatewayOptions {
  /** Which REST API this server is; the public one by default. */
  api?: ApiName;
  handlers: Record<RouteDefinition["function"], ProxyHandler> & {
    authorizer: AuthorizerHandler;
    "staff-authorizer": TokenAuthorizerHandler;
    "portal-authorizer": TokenAuthorizerHandler;
  };
  region: string;
  /** Print one JSON access-log line per request. */
  accessLog?: boolean;
  /** Stage throttling as API Gateway applies it (a token bucket); none when absent. */
  throttle?: Throttle;
  /**
   * The usage plan, for an API whose callers are apps (`perApp`): whether a usage identifier
   * has a bucket, and the bucket each has (none: identifiers are checked, not throttled).
   */
  usagePlan?: { has(identifier: string): boolean; throttle?: Throttle };
  /**
   * The web ACL's rate rules in front of the stage: requests per window from one source
   * address and with one `X-API-Key`, answered as the ACL answers; none when absent.
   */
  edge?: { perSourceIp: number; perApiKey: number };
}

/** API Gateway's limit on a request's headers, together (10 KB). */
const GATEWAY_MAX_HEADER_BYTES = 10 * 1024;

/**
 * What the gateway answers a request with: the function's result, one of its own gateway
 * responses, or the 405 of a known path with the methods it takes.
 */
type Answer = APIGatewayProxyResult | GatewayResponseType | { methodNotAllowed: string[] };

/** Whether every percent sign of a path starts an escape that decodes. */
function wellEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** What one gateway keeps across requests: its options, its API, the stage's token bucket and the cached authorizer. */
interface Gateway {
  options: GatewayOptions;
  api: ApiDefinition;
  routes: RouteTable;
  admit: () => boolean;
  /** The usage plan's step after the authorizer: nothing, or the gateway response that refuses the request. */
  planRefuses: (authorization: APIGatewayAuthorizerResult) => GatewayResponseType | undefined;
  /** The ACL's rate rules for a request: false when one of its buckets is empty. */
  edgeAdmits: (req: http.IncomingMessage) => boolean;
  /** Runs the API's authorizer (through its cache) for a request's fields and identity source. */
  authorize: (fields: RequestFields, identity: string | undefined) => Promise<Authorization>;
}

/** The API's authorizer as the stage runs it: a REQUEST event with every request field, or a TOKEN event with the token. */
function apiAuthorizer(api: ApiDefinition, options: GatewayOptions): Gateway["authorize"] {
  const { authorizer } = api;
  if (authorizer.function !== "authorizer") {
    const authorize = cachedAuthorizer(options.handlers[authorizer.function], authorizer.cacheTtlSeconds);
    return (fields, identity) =>
      authorize(
        {
          type: "TOKEN",
          authorizationToken: identity ?? "",
          methodArn: authorizerEvent(fields, options.region).methodArn,
        },
        identity,
      );
  }
  const authorize = cachedAuthorizer(options.handlers.authorizer, authorizer.cacheTtlSeconds);
  return (fields, identity) => authorize(authorizerEvent(fields, options.region), identity);
}

/** A token bucket: `burstLimit` tokens, refilled at `rateLimit` a second. */
function tokenBucket(limits: Throttle): () => boolean {
  let tokens = limits.burstLimit;
  let refilled = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(limits.burstLimit, tokens + ((now - refilled) / 1000) * limits.rateLimit);
    refilled = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** Most buckets kept per rule; past it they start again (a flood of distinct junk keys cannot grow memory). */
const MAX_EDGE_BUCKETS = 10_000;

/**
 * The ACL's two rate rules as buckets per source address and per `X-API-Key` value, each
 * holding a window's worth of requests and refilled over the window, as WAF counts them.
 */
function edgeBuckets(limits: { perSourceIp: number; perApiKey: number }): (req: http.IncomingMessage) => boolean {
  const rules = [
    { limit: limits.perSourceIp, keyOf: (req: http.IncomingMessage) => req.socket.remoteAddress },
    {
      limit: limits.perApiKey,
      keyOf: (req: http.IncomingMessage) => {
        const value = req.headers["x-api-key"];
        return typeof value === "string" ? value : undefined;
      },
    },
  ].map((rule) => ({ ...rule, buckets: new Map<string, () => boolean>() }));
  return (req) =>
    rules.every((rule) => {
      const key = rule.keyOf(req);
      if (key === undefined) return true;
      let bucket = rule.buckets.get(key);
      if (!bucket) {
        if (rule.buckets.size >= MAX_EDGE_BUCKETS) rule.buckets.clear();
        bucket = tokenBucket({ rateLimit: rule.limit / EDGE_WINDOW_SECONDS, burstLimit: rule.limit });
        rule.buckets.set(key, bucket);
      }
      return bucket();
    });
}

/**
 * The usage plan as API Gateway applies it once the authorizer has let a request through: the
 * usage identifier it returned must name a key of the plan (else `INVALID_API_KEY`), and that
 * key's own bucket must hold a token (else `THROTTLED`).
 */
function usagePlanStep(api: ApiDefinition, options: GatewayOptions): Gateway["planRefuses"] {
  if (!api.perApp) return () => undefined;
  const plan = options.usagePlan;
  if (!plan) throw new Error(`The ${api.id} gateway needs its usage plan: its callers are apps`);
  const buckets = new Map<string, () => boolean>();
  return (authorization) => {
    const identifier = authorization.usageIdentifierKey;
    if (!identifier || !plan.has(identifier)) return "INVALID_API_KEY";
    if (!plan.throttle) return undefined;
    let bucket = buckets.get(identifier);
    if (!bucket) {
      bucket = tokenBucket(plan.throttle);
      buckets.set(identifier, bucket);
    }
    return bucket() ? undefined : "THROTTLED";
  };
}

/** An HTTP server that answers the API as the deployed stage does, with the API reference beside it. */
export function createGateway(options: GatewayOptions): http.Server {
  const api: ApiDefinition = APIS[options.api ?? "public"];
  const gateway: Gateway = {
    options,
    api,
    routes: compileRoutes(api.routes),
    admit: options.throttle ? tokenBucket(options.throttle) : () => true,
    planRefuses: usagePlanStep(api, options),
    edgeAdmits: options.edge ? edgeBuckets(options.edge) : () => true,
    authorize: apiAuthorizer(api, options),
  };
  const server = http.createServer({ maxHeaderSize: GATEWAY_MAX_HEADER_BYTES }, (req, res) => {
    // The API reference (/openapi.json, /docs) is served only here, beside the public API, not through it.
    const reference = api === APIS.public ? referenceResponse(req.method, req.url) : undefined;
    if (reference) {
      writeResponse(res, { statusCode: 200, ...reference });
      return;
    }
    serveApiRequest(gateway, req, res);
  });
  // Only requests for a loopback host reach the API: a page of another site is refused, unthrottled and unlogged.
  loopbackHostsOnly(server);
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    // Headers past the limit are the gateway's problem answer too; anything else unreadable closes.
    if (error.code === "HPE_HEADER_OVERFLOW") {
      const result = gatewayResponse(api, "REQUEST_TOO_LARGE", randomUUID());
      const headers = Object.entries({ ...result.headers, "Content-Length": Buffer.byteLength(result.body) });
      socket.end(
        `HTTP/1.1 ${result.statusCode} Payload Too Large\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}Connection: close\r\n\r\n${result.body}`,
      );
      return;
    }
    socket.destroy();
  });
  return server;
}

/** Answers one API request, writes the response and its access-log line; an unexpected error is the 5XX response. */
function serveApiRequest(gateway: Gateway, req: http.IncomingMessage, res: http.ServerResponse): void {
  const started = process.hrtime.bigint();
  const requestId = randomUUID();
  answerRequest(gateway, req, requestId)
    .catch((): Answer => "DEFAULT_5XX")
    .then((answer) => {
      const result =
        typeof answer === "string"
          ? gatewayResponse(gateway.api, answer, requestId)
          : "methodNotAllowed" in answer
            ? methodNotAllowedResponse(answer.methodNotAllowed, requestId)
            : answer;
      writeResponse(res, result);
      if (gateway.options.accessLog) writeAccessLog(req, requestId, result.statusCode, started);
    });
}

/**
 * The steps in order: the web ACL's rates, the stage's throttling, the route, the body limit,
 * the authorizer, the app's usage plan, the function.
 */
async function answerRequest(gateway: Gateway, req: http.IncomingMessage, requestId: string): Promise<Answer> {
  // The web ACL first: what it blocks never reaches the stage, so it spends none of its throttle.
  if (!gateway.edgeAdmits(req)) {
    req.resume();
    const { status, body, headers } = EDGE_RESPONSES.rateLimited;
    return { statusCode: status, headers: { "Content-Type": "application/json", ...headers }, body };
  }
  if (!gateway.admit()) {
    req.resume();
    return "THROTTLED";
  }
  const target = requestTarget(req);
  if (!wellEncoded(target.url.pathname)) {
    req.resume();
    return "MISSING_AUTHENTICATION_TOKEN";
  }
  const matched = matchRoute(gateway.routes, target.method, target.url.pathname);
  if (!matched) {
    req.resume();
    const allow = allowedMethods(gateway.routes, target.url.pathname);
    return allow.length > 0 ? { methodNotAllowed: allow } : "MISSING_AUTHENTICATION_TOKEN";
  }
  // The web ACL's body rule, in front of the stage.
  const body = await readBody(req);
  if (body === undefined) return "REQUEST_TOO_LARGE";

  const fields = requestFields(req, target, matched, requestId);
  if (matched.route.authorization === "none") {
    return invoke(gateway.options.handlers, matched.route.function, proxyEvent(fields, body));
  }
  const identity = identitySource(req, gateway.api.authorizer.identityHeader);
  const authorization = await gateway.authorize(fields, identity);
  if (typeof authorization === "string") return authorization;
  const refused = gateway.planRefuses(authorization);
  if (refused) return refused;
  return invoke(gateway.options.handlers, matched.route.function, proxyEvent(fields, body, authorization));
}

/** Calls the route's function as Lambda would; a function that throws is the 5XX response. */
async function invoke(
  handlers: GatewayOptions["handlers"],
  name: RouteDefinition["function"],
  event: APIGatewayProxyEvent,
): Promise<Answer> {
  try {
    return await handlers[name](event, lambdaContext(name, randomUUID()));
  } catch {
    return "DEFAULT_5XX";
  }
}
