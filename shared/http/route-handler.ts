/**
 * The route handler: the adapter every API route's Lambda is. It takes the caller from the
 * authorizer's context, runs the route's work and answers its result, or its error as
 * problem+json, each response carrying the gateway's request id.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { AuditContext } from "../domain/audit.ts";
import type { Environment } from "../domain/environments.ts";
import { type PortalCaller, roleSchema } from "../domain/organizations.ts";
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
