import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { AuditContext } from "../domain/audit.ts";
import type { Environment } from "../domain/environments.ts";
import { ServiceError, UnavailableError, ValidationError } from "../domain/errors.ts";
import { type PortalCaller, roleSchema } from "../domain/organizations.ts";
import type { Log } from "../ports/log.ts";
import { refuseEdges } from "./edges.ts";
import { isProblemCode, PROBLEM_CONTENT_TYPE, problemBody } from "./problems.ts";

export const REQUEST_ID_HEADER = "Request-Id";

/** A request header, looked up without regard to case as HTTP defines. */
export function header(
  event: { headers?: Record<string, string | undefined> | null },
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

export function jsonResponse(
  statusCode: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { "Content-Type": "application/json", [REQUEST_ID_HEADER]: requestId, ...headers },
    body: JSON.stringify(body),
  };
}

const DEPENDENCY_BUSY = "A dependency is busy; retry after the time in Retry-After";
const UNEXPECTED = "An unexpected error occurred; retry later or contact support with the request_id";

const THROTTLING_ERROR_NAMES = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "RequestLimitExceeded",
  "SlowDown",
  "ServiceUnavailable",
]);

/**
 * True for an AWS SDK error that means "too many requests, try again", also when a library
 * (Powertools idempotency) has wrapped it as the cause of its own error.
 */
export function isThrottling(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (THROTTLING_ERROR_NAMES.has(current.name)) return true;
  }
  return false;
}

/** The one place where an error becomes a problem+json response; anything unexpected is logged. */
export function errorResponse(error: unknown, requestId: string, log: Log): APIGatewayProxyResult {
  const named = error instanceof ServiceError ? error : undefined;
  const known =
    named && isProblemCode(named.code)
      ? { code: named.code, error: named }
      : isThrottling(error)
        ? { code: "service_unavailable" as const, error: new UnavailableError(DEPENDENCY_BUSY, 1) }
        : undefined;
  if (!known) log.error("unhandled error", { error, request_id: requestId });
  const problem = known
    ? problemBody(
        known.code,
        known.error.message,
        requestId,
        known.error instanceof ValidationError ? known.error.fields : undefined,
      )
    : problemBody("internal_error", UNEXPECTED, requestId);
  const retryAfter = known?.error.retryAfterSeconds;
  return {
    statusCode: problem.status,
    headers: {
      "Content-Type": PROBLEM_CONTENT_TYPE,
      [REQUEST_ID_HEADER]: requestId,
      ...(retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) }),
    },
    body: JSON.stringify(problem),
  };
}

/** The raw request body as text, whatever transfer encoding the gateway used. */
export function bodyText(event: Pick<APIGatewayProxyEvent, "body" | "isBase64Encoded">): string {
  if (event.body === null || event.body === undefined) return "";
  return event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
}

/**
 * The absolute URL of the resource `id` under the collection the request was sent to, as the
 * client reached it: the stage's (or custom domain's) host and path, and its scheme.
 */
export function resourceUrl(event: Pick<APIGatewayProxyEvent, "headers" | "requestContext">, id: string): string {
  const scheme = header(event, "X-Forwarded-Proto") ?? "https";
  const host = event.requestContext.domainName ?? header(event, "Host");
  return `${scheme}://${host}${event.requestContext.path.replace(/\/$/, "")}/${encodeURIComponent(id)}`;
}

/** Who is calling, as the authorizer put it in the request context. */
export interface Caller {
  appId: string;
  environment: Environment;
}

function callerOf(event: APIGatewayProxyEvent): Caller {
  const context = event.requestContext.authorizer;
  if (typeof context?.appId !== "string" || typeof context.environment !== "string") {
    throw new Error("The request reached a handler without an authorizer context");
  }
  return { appId: context.appId, environment: context.environment as Environment };
}

/** A staff member, as the staff authorizer put them in the request context, with where the request came from. */
function staffCallerOf(event: APIGatewayProxyEvent): AuditContext {
  const context = event.requestContext.authorizer;
  if (typeof context?.sub !== "string" || typeof context.username !== "string") {
    throw new Error("The request reached a handler without a staff authorizer context");
  }
  return {
    actor: { pool: "staff", sub: context.sub, username: context.username },
    requestId: event.requestContext.requestId,
    sourceIp: event.requestContext.identity.sourceIp,
  };
}

/** A portal user, as the portal authorizer put them in the request context: their organisation and role. */
function portalCallerOf(event: APIGatewayProxyEvent): PortalCaller {
  const context = event.requestContext.authorizer;
  const role = roleSchema.safeParse(context?.role);
  if (
    typeof context?.sub !== "string" ||
    typeof context.username !== "string" ||
    typeof context.organizationId !== "string" ||
    !role.success
  ) {
    throw new Error("The request reached a handler without a portal authorizer context");
  }
  return {
    member: { sub: context.sub, username: context.username, organizationId: context.organizationId, role: role.data },
    audit: {
      actor: { pool: "portal", sub: context.sub, username: context.username },
      requestId: event.requestContext.requestId,
      sourceIp: event.requestContext.identity.sourceIp,
    },
  };
}

/** What a route's work answers: a status, a JSON body (none for a redirect), extra headers. */
export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type RouteWork<C> = (event: APIGatewayProxyEvent, caller: C, context: Context) => Promise<RouteResult>;

/**
 * The adapter every route handler is: the caller from the authorizer, the use case, and
 * any error as problem+json, each response carrying the gateway's request id.
 */
function handlerFor<C>(
  callerFrom: (event: APIGatewayProxyEvent) => C,
  log: Log,
  run: RouteWork<C>,
): (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult> {
  return async (event, context) => {
    const requestId = event.requestContext.requestId;
    try {
      refuseEdges(event);
      const result = await run(event, callerFrom(event), context);
      if (result.body === undefined) {
        return { statusCode: result.status, headers: { [REQUEST_ID_HEADER]: requestId, ...result.headers }, body: "" };
      }
      return jsonResponse(result.status, result.body, requestId, result.headers);
    } catch (error) {
      return errorResponse(error, requestId, log);
    }
  };
}

/** A public route: the caller is the client app of the API key. */
export function routeHandler(log: Log, run: RouteWork<Caller>) {
  return handlerFor(callerOf, log, run);
}

/** A backoffice route: the caller is a staff member, and what they do is audited under that name. */
export function staffRouteHandler(log: Log, run: RouteWork<AuditContext>) {
  return handlerFor(staffCallerOf, log, run);
}

/** A portal route: the caller is a member of one organisation, and what they change is audited under their name. */
export function portalRouteHandler(log: Log, run: RouteWork<PortalCaller>) {
  return handlerFor(portalCallerOf, log, run);
}
