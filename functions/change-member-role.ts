/**
 * PATCH /portal/v1/users/{username} (owners): primary adapter -> use case
 * `changeOrganizationMemberRole` (the ops command's `changeMemberRole`) -> secondary adapters (the
 * memberships, the audit trail).
 */
import { CHANGE_MEMBER_ROLE_FUNCTION } from "#shared/declarations/functions/change-member-role";
import { memberRoleBodySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { readJsonBody } from "#shared/http/requests";
import { changeOrganizationMemberRole } from "#shared/use-cases/portal/members";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail } from "#shared/wiring/stores/audit";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(CHANGE_MEMBER_ROLE_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { organizations: organizationStore(config, audit), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await changeOrganizationMemberRole(deps, caller, {
    username: event.pathParameters?.username ?? "",
    ...readJsonBody(event, memberRoleBodySchema),
  }),
}));
