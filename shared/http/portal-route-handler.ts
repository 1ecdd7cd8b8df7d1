/** A portal route's handler: the caller is a member of one organisation, as the portal authorizer put them. */
import type { APIGatewayProxyEvent } from "aws-lambda";
import { type PortalCaller, roleSchema } from "../domain/organizations.ts";
import type { Log } from "../ports/log.ts";
import { handlerFor, type RouteWork } from "./route-handler.ts";

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
      organizationId: context.organizationId,
    },
  };
}

/** A portal route: the caller is a member of one organisation, and what they change is audited under their name. */
export function portalRouteHandler(log: Log, run: RouteWork<PortalCaller>) {
  return handlerFor(portalCallerOf, log, run);
}
