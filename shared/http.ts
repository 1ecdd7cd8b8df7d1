import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { Environment } from "./config.ts";
import { ApiError, DependencyThrottledError, isThrottling } from "./errors.ts";
import { logger } from "./logger.ts";
import { PROBLEM_CONTENT_TYPE, problemBody } from "./problems.ts";

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

/** The one place where an error becomes a problem+json response. */
export function errorResponse(error: unknown, requestId: string): APIGatewayProxyResult {
  const known = error instanceof ApiError ? error : isThrottling(error) ? new DependencyThrottledError() : undefined;
  if (!known) {
    logger.error("unhandled error", { error: error as Error, request_id: requestId });
  }
  const problem = known
    ? problemBody(known.code, known.message, requestId, known.errors)
    : problemBody(
        "internal_error",
        "An unexpected error occurred; retry later or contact support with the request_id",
        requestId,
      );
  return {
    statusCode: problem.status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, [REQUEST_ID_HEADER]: requestId, ...(known?.headers ?? {}) },
    body: JSON.stringify(problem),
  };
}

/** The raw request body as text, whatever transfer encoding the gateway used. */
export function bodyText(event: Pick<APIGatewayProxyEvent, "body" | "isBase64Encoded">): string {
  if (event.body === null || event.body === undefined) return "";
  return event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
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

/**
 * The adapter every route handler is: the caller from the authorizer, the use case, and
 * any error as problem+json, each response carrying the gateway's request id.
 */
export function routeHandler(
  run: (
    event: APIGatewayProxyEvent,
    caller: Caller,
    context: Context,
  ) => Promise<{
    status: number;
    body: unknown;
    headers?: Record<string, string>;
  }>,
): (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult> {
  return async (event, context) => {
    const requestId = event.requestContext.requestId;
    try {
      const result = await run(event, callerOf(event), context);
      return jsonResponse(result.status, result.body, requestId, result.headers);
    } catch (error) {
      return errorResponse(error, requestId);
    }
  };
}
