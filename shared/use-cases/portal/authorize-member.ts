import { type Member, ROLE_GRANTS } from "../../domain/organizations.ts";
import type { AccessTokenVerifier } from "../../ports/identity.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import { bearerPrincipal, type GuardedRoute, routesFor } from "../authorize-bearer.ts";

export type MemberAuthorization =
  | { outcome: "unauthorized" }
  /** A live portal token; `routes` are those the member's role allows (none for a user of no organisation). */
  | { outcome: "allow"; sub: string; member: Member | undefined; routes: GuardedRoute[] };

/**
 * Decides what a portal user's token may do: find their organisation and role (one read),
 * then every route that role allows, all at once, as the gateway caches the answer by token.
 */
export async function authorizeMember(
  deps: { tokens: AccessTokenVerifier; organizations: Pick<OrganizationStore, "getMember"> },
  authorization: string | undefined,
  routes: readonly GuardedRoute[],
): Promise<MemberAuthorization> {
  const principal = await bearerPrincipal(deps.tokens, authorization);
  if (!principal) return { outcome: "unauthorized" };
  const membership = await deps.organizations.getMember(principal.sub);
  if (!membership) return { outcome: "allow", sub: principal.sub, member: undefined, routes: [] };
  const member: Member = {
    sub: principal.sub,
    username: principal.username,
    organizationId: membership.member_org_id,
    role: membership.role,
  };
  return { outcome: "allow", sub: principal.sub, member, routes: routesFor(routes, ROLE_GRANTS[membership.role]) };
}
