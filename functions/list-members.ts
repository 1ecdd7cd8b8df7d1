/** GET /portal/v1/users (owners): primary adapter -> use case `listMembers` -> secondary adapter (the memberships index). */
import { LIST_MEMBERS_FUNCTION } from "#shared/declarations/functions/list-members";
import { membersQuerySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { parseQuery } from "#shared/http/requests";
import { listMembers } from "#shared/use-cases/portal/members";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(LIST_MEMBERS_FUNCTION);
const deps = { organizations: organizationStore(config) };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await listMembers(deps, caller.member, parseQuery(event.queryStringParameters, membersQuerySchema)),
}));
