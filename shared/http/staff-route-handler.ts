/** A backoffice route's handler: the caller is a staff member, as the staff authorizer put them. */
import type { APIGatewayProxyEvent } from "aws-lambda";
import type { AuditContext } from "../domain/audit.ts";
import type { Log } from "../ports/log.ts";
import { handlerFor, type RouteWork } from "./route-handler.ts";

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

/** A backoffice route: the caller is a staff member, and what they do is audited under that name. */
export function staffRouteHandler(log: Log, run: RouteWork<AuditContext>) {
  return handlerFor(staffCallerOf, log, run);
}
