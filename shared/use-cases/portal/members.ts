/** An organisation's people, as its owners see and invite them. */
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { Member, PortalCaller, PortalRole } from "../../domain/organizations.ts";
import { memberPositionSchema } from "../../domain/portal.ts";
import type { Clock } from "../../ports/clock.ts";
import type { StaffDirectory } from "../../ports/identity.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import { inviteMember } from "../accounts/organizations.ts";

export async function listMembers(
  deps: { organizations: Pick<OrganizationStore, "membersOf"> },
  member: Member,
  page: { limit: number; cursor?: string },
): Promise<{ data: { username: string; role: PortalRole; created_at: string }[]; next_cursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, memberPositionSchema);
  const { members, more } = await deps.organizations.membersOf(member.organizationId, page.limit, after);
  const last = members.at(-1);
  return {
    data: members.map(({ username, role, created_at }) => ({ username, role, created_at })),
    next_cursor: more && last ? encodeCursor({ username: last.username, sub: last.sub }) : null,
  };
}

/** A new person of the caller's organisation, through the same use case as `ops orgs invite`. */
export async function inviteOrganizationMember(
  deps: {
    organizations: Pick<OrganizationStore, "getOrganization" | "addMember">;
    users: Pick<StaffDirectory, "add">;
    clock: Clock;
  },
  caller: PortalCaller,
  input: { username: string; email?: string; role: PortalRole },
): Promise<{ username: string; role: PortalRole; temporary_password: string }> {
  const invited = await inviteMember(deps, { organizationId: caller.member.organizationId, ...input }, caller.audit);
  return { username: invited.username, role: invited.role, temporary_password: invited.temporary_password };
}
