/**
 * POST /portal/v1/users (owners): primary adapter -> use case `inviteOrganizationMember` (the
 * ops command's `inviteMember`) -> secondary adapters (the customer pool, the memberships, the audit trail).
 */
import { INVITE_MEMBER_FUNCTION } from "#shared/declarations/functions/invite-member";
import { inviteBodySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { readJsonBody } from "#shared/http/requests";
import { inviteOrganizationMember } from "#shared/use-cases/portal/members";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { portalUsers } from "#shared/wiring/portal-directory";
import { auditTrail } from "#shared/wiring/stores/audit";
import { organizationStore } from "#shared/wiring/stores/organizations";

const config = functionConfig(INVITE_MEMBER_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { organizations: organizationStore(config, audit), users: portalUsers(config), audit, clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 201,
  body: await inviteOrganizationMember(deps, caller, readJsonBody(event, inviteBodySchema)),
  headers: { "Cache-Control": "no-store" },
}));
