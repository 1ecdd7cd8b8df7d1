/** An organisation's people, as its owners see and invite them. */
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { Member, PortalCaller, PortalRole } from "../../domain/organizations.ts";
import { memberPositionSchema } from "../../domain/portal.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import {
  changeMemberRole,
  inviteMember,
  type MemberView,
  removeMember,
  requireMember,
} from "../accounts/organizations.ts";

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
  deps: Parameters<typeof inviteMember>[0],
  caller: PortalCaller,
  input: { username: string; email: string; role: PortalRole },
): Promise<{ username: string; role: PortalRole; status: string }> {
  const invited = await inviteMember(deps, { organizationId: caller.member.organizationId, ...input }, caller.audit);
  return { username: invited.username, role: invited.role, status: invited.status };
}

/** One member of the caller's organisation; anyone else reads as not found. */
export async function organizationMember(
  deps: { organizations: Pick<OrganizationStore, "memberNamed"> },
  caller: PortalCaller,
  username: string,
): Promise<MemberView> {
  const member = await requireMember(deps.organizations, caller.member.organizationId, username);
  return { username: member.username, role: member.role, created_at: member.created_at };
}

/** Gives a member of the caller's organisation another role, as `ops orgs set-role` does. */
export function changeOrganizationMemberRole(
  deps: Parameters<typeof changeMemberRole>[0],
  caller: PortalCaller,
  input: { username: string; role: PortalRole },
): Promise<MemberView> {
  return changeMemberRole(deps, { organizationId: caller.member.organizationId, ...input }, caller.audit);
}

/** Takes a member out of the caller's organisation, as `ops orgs remove-member` does. */
export function removeOrganizationMember(
  deps: Parameters<typeof removeMember>[0],
  caller: PortalCaller,
  username: string,
): Promise<MemberView> {
  return removeMember(deps, { organizationId: caller.member.organizationId, username }, caller.audit);
}
