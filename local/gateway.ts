/**
 * API Gateway on one machine: the shared route table, the REQUEST authorizer with its
 * cache, the same proxy events and the same gateway responses as the deployed stack.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from "aws-lambda";
import { FUNCTIONS, type FunctionName } from "#shared/declarations/functions";
import { GATEWAY_RESPONSES, type GatewayResponseType } from "#shared/declarations/gateway-responses";
import { AUTHORIZER, GATEWAY_MAX_BODY_BYTES, ROUTES, type RouteDefinition } from "#shared/declarations/routes";
import { PROBLEM_CONTENT_TYPE, problemBody } from "#shared/http/problems";
import { REQUEST_ID_HEADER } from "#shared/http/responses";
import { referenceResponse } from "../openapi/reference.ts";

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayOptions {
  handlers: Record<RouteDefinition["function"], ProxyHandler> & { authorizer: AuthorizerHandler };
  region: string;
  /** Print one JSON access-log line per request. */
  accessLog?: boolean;
  /** Stage throttling as API Gateway applies it (a token bucket); none when absent. */
  throttle?: { rateLimit: number; burstLimit: number };
}

const ACCOUNT_ID = "000000000000";
const API_ID = "local";
const STAGE = "v1";

const compiledRoutes = ROUTES.map((route) => {
  const names: string[] = [];
  const pattern = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { ...route, regex: new RegExp(`^${pattern}$`), names };
});

function matchRoute(method: string, path: string) {
  for (const route of compiledRoutes) {
    const match = route.regex.exec(path);
    if (route.method === method && match) {
      const parameters = Object.fromEntries(
        route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]),
      );
      return { route, parameters };
    }
  }
  return undefined;
}

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

function lambdaContext(functionName: FunctionName, requestId: string): Context {
  const deadline = Date.now() + FUNCTIONS[functionName].timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:local:${ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: "256",
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Headers as API Gateway passes them: the client's spelling, last value and every value. */
function requestHeaders(req: http.IncomingMessage) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const value = req.rawHeaders[i + 1] as string;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  return { headers, multiValueHeaders };
}

function queryParameters(url: URL) {
  if ([...url.searchParams.keys()].length === 0) {
    return { queryStringParameters: null, multiValueQueryStringParameters: null };
  }
  const multi: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) multi[name] = [...(multi[name] ?? []), value];
  return {
    queryStringParameters: Object.fromEntries(
      Object.entries(multi).map(([name, values]) => [name, values.at(-1) ?? ""]),
    ),
    multiValueQueryStringParameters: multi,
  };
}

/** Reads the body, or undefined once it passes API Gateway's own limit. */
async function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function gatewayResponse(type: GatewayResponseType, requestId: string): APIGatewayProxyResult {
  const definition = GATEWAY_RESPONSES[type];
  const body = problemBody(definition.code, definition.detail, requestId);
  return {
    statusCode: body.status,
    headers: {
      "Content-Type": PROBLEM_CONTENT_TYPE,
      [REQUEST_ID_HEADER]: requestId,
      ...("headers" in definition ? definition.headers : {}),
    },
    body: JSON.stringify(body),
  };
}

/** A token bucket: `burstLimit` tokens, refilled at `rateLimit` a second. */
function tokenBucket(limits: { rateLimit: number; burstLimit: number }): () => boolean {
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

export function createGateway(options: GatewayOptions): http.Server {
  const cache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const admit = options.throttle ? tokenBucket(options.throttle) : () => true;

  async function authorizeRequest(
    event: APIGatewayRequestAuthorizerEvent,
    identity: string,
  ): Promise<APIGatewayAuthorizerResult | GatewayResponseType> {
    const cached = cache.get(identity);
    let result: APIGatewayAuthorizerResult;
    if (cached && cached.expires > Date.now()) {
      result = cached.result;
    } else {
      try {
        result = await options.handlers.authorizer(event);
      } catch (error) {
        return error instanceof Error && error.message === "Unauthorized" ? "UNAUTHORIZED" : "AUTHORIZER_FAILURE";
      }
      cache.set(identity, { result, expires: Date.now() + AUTHORIZER.cacheTtlSeconds * 1000 });
    }
    return policyAllows(result, event.methodArn) ? result : "ACCESS_DENIED";
  }

  async function respond(req: http.IncomingMessage, requestId: string): Promise<APIGatewayProxyResult> {
    if (!admit()) {
      req.resume();
      return gatewayResponse("THROTTLED", requestId);
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const matched = matchRoute(method, url.pathname);
    if (!matched) {
      req.resume();
      return gatewayResponse("MISSING_AUTHENTICATION_TOKEN", requestId);
    }
    const body = await readBody(req);
    if (body === undefined) return gatewayResponse("REQUEST_TOO_LARGE", requestId);

    const { headers, multiValueHeaders } = requestHeaders(req);
    const now = Date.now();
    const requestContext = {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      httpMethod: method,
      path: `/${STAGE}${url.pathname}`,
      protocol: `HTTP/${req.httpVersion}`,
      requestId,
      requestTimeEpoch: now,
      resourceId: matched.route.function,
      resourcePath: matched.route.path,
      stage: STAGE,
      identity: { sourceIp: req.socket.remoteAddress ?? "127.0.0.1", userAgent: req.headers["user-agent"] ?? null },
    } as APIGatewayProxyEvent["requestContext"];
    const common = {
      resource: matched.route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      ...queryParameters(url),
      pathParameters: Object.keys(matched.parameters).length > 0 ? matched.parameters : null,
      stageVariables: null,
      requestContext,
    };

    const identity = req.headers[AUTHORIZER.identityHeader.toLowerCase()];
    if (typeof identity !== "string" || identity === "") return gatewayResponse("UNAUTHORIZED", requestId);
    const methodArn = `arn:aws:execute-api:${options.region}:${ACCOUNT_ID}:${API_ID}/${STAGE}/${method}${url.pathname}`;
    const authorization = await authorizeRequest(
      {
        type: "REQUEST",
        methodArn,
        ...common,
        requestContext: requestContext as APIGatewayRequestAuthorizerEvent["requestContext"],
      },
      identity,
    );
    if (typeof authorization === "string") return gatewayResponse(authorization, requestId);

    const event: APIGatewayProxyEvent = {
      ...common,
      body: body.length > 0 ? body.toString("utf8") : null,
      isBase64Encoded: false,
      requestContext: {
        ...requestContext,
        authorizer: { ...authorization.context, principalId: authorization.principalId },
      },
    };
    const name = matched.route.function;
    try {
      return await options.handlers[name](event, lambdaContext(name, randomUUID()));
    } catch {
      return gatewayResponse("DEFAULT_5XX", requestId);
    }
  }

  return http.createServer((req, res) => {
    // The API reference (/openapi.json, /docs) is served only here, beside the API, not through it.
    const reference = referenceResponse(req.method, req.url);
    if (reference) {
      res.writeHead(200, { ...reference.headers, "Content-Length": Buffer.byteLength(reference.body) });
      res.end(reference.body);
      return;
    }
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    respond(req, requestId)
      .catch(() => gatewayResponse("DEFAULT_5XX", requestId))
      .then((result) => {
        const body = result.body ?? "";
        res.writeHead(result.statusCode, {
          ...result.headers,
          "Content-Length": Buffer.byteLength(body),
        } as http.OutgoingHttpHeaders);
        res.end(body);
        if (options.accessLog) {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          process.stdout.write(
            `${JSON.stringify({ request_id: requestId, method: req.method, path: req.url?.split("?")[0], status: result.statusCode, ms: Math.round(ms * 10) / 10 })}\n`,
          );
        }
      });
  });
}
