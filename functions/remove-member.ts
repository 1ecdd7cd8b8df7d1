/**
 * DELETE /portal/v1/users/{username} (owners): primary adapter -> use case
 * `removeOrganizationMember` (the ops command's `removeMember`) -> secondary adapters (the
 * memberships, the audit trail, the customer pool).
 */
import { REMOVE_MEMBER_FUNCTION } from "#shared/declarations/functions/remove-member";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { removeOrganizationMember } from "#shared/use-cases/portal/members";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { portalUsers } from "#shared/wiring/portal-directory";
import { auditTrail } from "#shared/wiring/stores/audit";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(REMOVE_MEMBER_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { organizations: organizationStore(config, audit), users: portalUsers(config), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await removeOrganizationMember(deps, caller, event.pathParameters?.username ?? ""),
}));
