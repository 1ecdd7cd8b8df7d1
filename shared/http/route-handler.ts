/**
 * The route handler: the adapter every API route's Lambda is. It takes the caller from the
 * authorizer's context, runs the route's work and answers its result, or its error as
 * problem+json, each response carrying the gateway's request id. The public API's routes are
 * here; the backoffice's and the portal's callers are in files of their own.
 */
import { isDeepStrictEqual } from "node:util";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { Environment } from "../domain/environments.ts";
import {
  type KeptFieldError,
  MAX_KEPT_ERRORS,
  type RequestRecord,
  type RequestToKeep,
  worthKeeping,
} from "../domain/requests.ts";
import { isoSeconds } from "../domain/time.ts";
import type { Clock } from "../ports/clock.ts";
import type { Log } from "../ports/log.ts";
import type { RequestLog } from "../ports/request-log.ts";
import { refuseEdges } from "./edges.ts";
import { PROBLEM_CONTENT_TYPE } from "./problems.ts";
import { errorResponse, jsonResponse, REQUEST_ID_HEADER } from "./responses.ts";

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

/** What a route's work answers: a status, a JSON body (none for a redirect), extra headers. */
export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteWork<C> = (event: APIGatewayProxyEvent, caller: C, context: Context) => Promise<RouteResult>;

/**
 * The adapter every route handler is: the caller from the authorizer, the use case, and
 * any error as problem+json, each response carrying the gateway's request id.
 */
export function handlerFor<C>(
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

/** What a public route's adapter needs besides its work: its log, and the request log it keeps. */
export interface PublicRouteDeps {
  log: Log;
  requests: Pick<RequestLog, "record">;
  clock: Clock;
}

/** A JSON body as an object; none when the body is not a JSON object. */
function bodyOf(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A string field of a parsed body (the problem's `code`, a created verification's id). */
function stringField(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  return typeof value === "string" ? value : undefined;
}

/** A problem's invalid fields as the log keeps them: each one's path and code, never its message (it may quote the value). */
function keptErrors(problem: Record<string, unknown>): KeptFieldError[] {
  const errors = Array.isArray(problem.errors) ? (problem.errors as unknown[]) : [];
  return errors.slice(0, MAX_KEPT_ERRORS).flatMap((error) => {
    if (typeof error !== "object" || error === null) return [];
    const field = stringField(error as Record<string, unknown>, "field");
    const code = stringField(error as Record<string, unknown>, "code");
    return field === undefined || code === undefined ? [] : [{ field, code }];
  });
}

/** The request as it was answered, for the request log: the verification it named or created, a refusal's code and fields. */
function requestRecord(event: APIGatewayProxyEvent, response: APIGatewayProxyResult, at: string): RequestRecord {
  const problem = response.headers?.["Content-Type"] === PROBLEM_CONTENT_TYPE;
  const body = bodyOf(response.body);
  const verificationId =
    event.pathParameters?.verification_id ?? (problem ? undefined : stringField(body, "verification_id"));
  const code = problem ? stringField(body, "code") : undefined;
  const errors = problem ? keptErrors(body) : [];
  return {
    ...requestOf(event, at),
    status: response.statusCode,
    ...(code === undefined ? {} : { code }),
    ...(errors.length === 0 ? {} : { errors }),
    ...(verificationId === undefined ? {} : { verification_id: verificationId }),
  };
}

/** What the log keeps of any request, whatever its answer. */
function requestOf(event: APIGatewayProxyEvent, at: string) {
  return {
    request_id: event.requestContext.requestId,
    app_id: callerOf(event).appId,
    method: event.httpMethod,
    path: event.path,
    at,
  };
}

/** The request being answered, whose record a change it makes may carry in the change's own write. */
export interface LoggedRequest {
  /** The request as the log keeps it when it is answered `status` about the verification it changed. */
  answering(status: number): RequestToKeep;
}

/** True when the record a change kept is the one the answer would write. */
function sameRecord(kept: RequestRecord | undefined, answered: RequestRecord): boolean {
  return kept !== undefined && isDeepStrictEqual(kept, answered);
}

/**
 * A public route: the caller is the client app of the API key. A request that could change
 * something, or was refused, is kept in the request log, so the app's people can look it up by
 * its request id. A change the route makes carries the record in its own write (`logged`), and
 * nothing more is written when the answer is the one it carried; otherwise (a refusal, a replay,
 * an answer other than the one carried) the record is written once the answer is known. A
 * failure to keep it is logged and does not change the answer.
 */
export function routeHandler(
  deps: PublicRouteDeps,
  run: (event: APIGatewayProxyEvent, caller: Caller, context: Context, logged: LoggedRequest) => Promise<RouteResult>,
) {
  return async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    // One time for the request, so the record a change carried and the answer's are the same.
    const at = isoSeconds(deps.clock.now());
    let kept: RequestRecord | undefined;
    const logged: LoggedRequest = {
      answering: (status) => ({
        recordOf: (verificationId) => ({ ...requestOf(event, at), status, verification_id: verificationId }),
        kept: (record) => {
          kept = record;
        },
      }),
    };
    const response = await handlerFor(callerOf, deps.log, (request, caller, invocation) =>
      run(request, caller, invocation, logged),
    )(event, context);
    if (worthKeeping(event.httpMethod, response.statusCode)) {
      try {
        const record = requestRecord(event, response, at);
        if (!sameRecord(kept, record)) await deps.requests.record(record);
      } catch (error) {
        deps.log.warn("the request was not kept in the request log", {
          error,
          request_id: event.requestContext.requestId,
        });
      }
    }
    return response;
  };
}
