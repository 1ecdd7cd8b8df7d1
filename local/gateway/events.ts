/**
 * What the gateway hands on, built from the Node request: the authorizer's REQUEST event,
 * the function's proxy event and its Lambda context, as the deployed stage builds them.
 */
import type http from "node:http";
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from "aws-lambda";
import { FUNCTIONS, type FunctionName } from "#shared/declarations/functions";
import type { RouteDefinition } from "#shared/declarations/routes";
import { MAX_BODY_BYTES } from "#shared/http/edges";
import type { RouteMatch } from "./routes.ts";

const ACCOUNT_ID = "000000000000";
const API_ID = "local";
const STAGE = "v1";

/**
 * What the events are built from: the parts of a Node request they read, so an event for a
 * request that never crossed a socket (the bench's in-process figures) is built the same way.
 */
export type GatewayRequest = Pick<http.IncomingMessage, "rawHeaders" | "httpVersion" | "headers"> & {
  socket: { remoteAddress?: string | undefined };
};

/** The method and URL the gateway routes a request on. */
export interface RequestTarget {
  method: string;
  url: URL;
}

/** The fields the authorizer's REQUEST event and the function's proxy event share. */
export type RequestFields = Pick<
  APIGatewayProxyEvent,
  | "resource"
  | "path"
  | "httpMethod"
  | "headers"
  | "multiValueHeaders"
  | "queryStringParameters"
  | "multiValueQueryStringParameters"
  | "pathParameters"
  | "stageVariables"
  | "requestContext"
>;

/** The request's method and URL, with the defaults Node leaves to the server. */
export function requestTarget(req: http.IncomingMessage): RequestTarget {
  return { method: req.method ?? "GET", url: new URL(req.url ?? "/", "http://localhost") };
}

/** Reads the body, or undefined once it passes the limit the web ACL's body rule holds every route to. */
export async function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Headers as API Gateway passes them: the client's spelling, last value and every value, with
 * the scheme the client used in `X-Forwarded-Proto` (the gateway's own, whatever a client sent).
 */
function requestHeaders(req: GatewayRequest) {
  // A Map, so a header named like an Object method (`toString`) is a header like any other.
  const values = new Map<string, string[]>();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    if (name.toLowerCase() === "x-forwarded-proto") continue;
    values.set(name, [...(values.get(name) ?? []), req.rawHeaders[i + 1] as string]);
  }
  values.set("X-Forwarded-Proto", ["http"]);
  return {
    headers: Object.fromEntries([...values].map(([name, all]) => [name, all.at(-1) ?? ""])),
    multiValueHeaders: Object.fromEntries(values),
  };
}

/** Query parameters as API Gateway passes them: last value and every value, or null for none. */
function queryParameters(url: URL) {
  if ([...url.searchParams.keys()].length === 0) {
    return { queryStringParameters: null, multiValueQueryStringParameters: null };
  }
  // A Map, so a parameter named like an Object method (`toString`) is a parameter like any other.
  const multi = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) multi.set(name, [...(multi.get(name) ?? []), value]);
  return {
    queryStringParameters: Object.fromEntries([...multi].map(([name, values]) => [name, values.at(-1) ?? ""])),
    multiValueQueryStringParameters: Object.fromEntries(multi),
  };
}

/** The stage's request context, before an authorizer has added its own. */
function requestContext(
  req: GatewayRequest,
  target: RequestTarget,
  route: RouteDefinition,
  requestId: string,
): APIGatewayProxyEvent["requestContext"] {
  return {
    accountId: ACCOUNT_ID,
    apiId: API_ID,
    httpMethod: target.method,
    // The API is served at the root of its host, as under a custom domain with no base path.
    path: target.url.pathname,
    domainName: req.headers.host ?? "127.0.0.1",
    protocol: `HTTP/${req.httpVersion}`,
    requestId,
    requestTimeEpoch: Date.now(),
    resourceId: route.function,
    resourcePath: route.path,
    stage: STAGE,
    identity: { sourceIp: req.socket.remoteAddress ?? "127.0.0.1", userAgent: req.headers["user-agent"] ?? null },
  } as APIGatewayProxyEvent["requestContext"];
}

/** The fields of a matched request that both events carry. */
export function requestFields(
  req: GatewayRequest,
  target: RequestTarget,
  matched: RouteMatch,
  requestId: string,
): RequestFields {
  return {
    resource: matched.route.path,
    path: target.url.pathname,
    httpMethod: target.method,
    ...requestHeaders(req),
    ...queryParameters(target.url),
    pathParameters: Object.keys(matched.parameters).length > 0 ? matched.parameters : null,
    stageVariables: null,
    requestContext: requestContext(req, target, matched.route, requestId),
  };
}

/** The REQUEST event the authorizer receives, with the ARN of the method called. */
export function authorizerEvent(fields: RequestFields, region: string): APIGatewayRequestAuthorizerEvent {
  return {
    type: "REQUEST",
    methodArn: `arn:aws:execute-api:${region}:${ACCOUNT_ID}:${API_ID}/${STAGE}/${fields.httpMethod}${fields.path}`,
    ...fields,
    requestContext: fields.requestContext as APIGatewayRequestAuthorizerEvent["requestContext"],
  };
}

/** The proxy event the route's function receives, carrying the authorizer's principal and context when it has one. */
export function proxyEvent(
  fields: RequestFields,
  body: Buffer,
  authorization?: APIGatewayAuthorizerResult,
): APIGatewayProxyEvent {
  return {
    ...fields,
    // Every body arrives base64-encoded, as the stack's binary media type `*/*` has API Gateway
    // pass it: the bytes as sent, so a body that is not UTF-8 can be told apart.
    body: body.length > 0 ? body.toString("base64") : null,
    isBase64Encoded: body.length > 0,
    requestContext: {
      ...fields.requestContext,
      authorizer: authorization ? { ...authorization.context, principalId: authorization.principalId } : null,
    },
  };
}

/** The Lambda context of one invocation, with the function's own timeout. */
export function lambdaContext(functionName: FunctionName, requestId: string): Context {
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
