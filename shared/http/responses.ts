import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { LimitReachedError, ServiceError, UnavailableError, ValidationError } from "../domain/errors.ts";
import type { Log } from "../ports/log.ts";
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
        known.error instanceof ValidationError
          ? { errors: known.error.fields }
          : known.error instanceof LimitReachedError
            ? { limit: known.error.limit }
            : {},
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
