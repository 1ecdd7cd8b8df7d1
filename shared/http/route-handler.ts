/**
 * The route handler: the adapter every API route's Lambda is. It takes the caller from the
 * authorizer's context, runs the route's work and answers its result, or its error as
 * problem+json, each response carrying the gateway's request id. The public API's routes are
 * here; the backoffice's and the portal's callers are in files of their own.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { Environment } from "../domain/environments.ts";
import type { Log } from "../ports/log.ts";
import { refuseEdges } from "./edges.ts";
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

/** A public route: the caller is the client app of the API key. */
export function routeHandler(log: Log, run: RouteWork<Caller>) {
  return handlerFor(callerOf, log, run);
}
