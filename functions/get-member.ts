/** GET /portal/v1/users/{username} (owners): primary adapter -> use case `organizationMember` -> secondary adapter (the memberships). */
import { GET_MEMBER_FUNCTION } from "#shared/declarations/functions/get-member";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { organizationMember } from "#shared/use-cases/portal/members";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(GET_MEMBER_FUNCTION);
const deps = { organizations: organizationStore(config) };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await organizationMember(deps, caller, event.pathParameters?.username ?? ""),
}));
