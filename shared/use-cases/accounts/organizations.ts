/**
 * Organisations, as operators manage them: create one, invite its people to the portal with a
 * role, and give it the apps that existed before it (at most `APPS_PER_ORGANIZATION` in all).
 */

import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import type { Environment } from "../../domain/environments.ts";
import { LimitReachedError, NotFoundError, RefusedError } from "../../domain/errors.ts";
import { isId, newId } from "../../domain/ids.ts";
import type { MemberItem, OrganizationItem, PortalRole } from "../../domain/organizations.ts";
import {
  APPS_PER_ORGANIZATION,
  MEMBERS_PER_ORGANIZATION,
  PENDING_INVITES_PER_ORGANIZATION,
} from "../../domain/tenant-limits.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import type { PoolPerson, PortalDirectory } from "../../ports/identity.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import { checkAppName, tooManyApps } from "./apps.ts";
import { requireApp } from "./require-app.ts";

/** A membership as the portal and the ops command show it. */
export type MemberView = Pick<MemberItem, "username" | "role" | "created_at">;

export type OrganizationView = Pick<OrganizationItem, "organization_id" | "name" | "environment" | "created_at">;

function organizationView(organization: OrganizationItem): OrganizationView {
  const { organization_id, name, environment, created_at } = organization;
  return { organization_id, name, environment, created_at };
}

export async function createOrganization(
  deps: { organizations: Pick<OrganizationStore, "createOrganization">; clock: Clock },
  input: { name: string; environment: Environment },
  /** Who creates it: the organisation is written with the record of it. */
  by?: AuditContext,
): Promise<OrganizationView> {
  // The same rule as an app's name: printable, 1 to 100 characters.
  const name = checkAppName(input.name);
  const organizationId = newId("organization");
  const organization: OrganizationItem = {
    kind: "organization",
    organization_id: organizationId,
    name,
    environment: input.environment,
    created_at: isoSeconds(deps.clock.now()),
    app_count: 0,
  };
  await deps.organizations.createOrganization(
    organization,
    by &&
      auditRecord(by, deps.clock.now(), {
        action: "organization.created",
        organization_id: organizationId,
        detail: { name },
      }),
  );
  return organizationView(organization);
}

export async function listOrganizations(deps: {
  organizations: Pick<OrganizationStore, "listOrganizations">;
}): Promise<OrganizationView[]> {
  return (await deps.organizations.listOrganizations()).map(organizationView);
}

async function requireOrganization(
  organizations: Pick<OrganizationStore, "getOrganization">,
  organizationId: string,
): Promise<OrganizationItem> {
  const organization = isId("organization", organizationId)
    ? await organizations.getOrganization(organizationId)
    : undefined;
  if (!organization) throw new NotFoundError("organization_not_found", `No organisation ${organizationId}`);
  return organization;
}

/** The refusal of a member beyond what an organisation may have. */
function tooManyMembers(): LimitReachedError {
  return new LimitReachedError(
    { name: "members_per_organization", max: MEMBERS_PER_ORGANIZATION },
    `The organisation already has ${MEMBERS_PER_ORGANIZATION} members, the most an organisation may have; remove someone first`,
  );
}

/**
 * Records as joined the organisation's invitees who have signed in since their invitation, which
 * gives their invitations' places back.
 */
async function settleJoined(
  deps: {
    organizations: Pick<OrganizationStore, "pendingMembers" | "markJoined">;
    users: Pick<PortalDirectory, "hasSignedIn">;
  },
  organizationId: string,
): Promise<void> {
  for (const member of await deps.organizations.pendingMembers(organizationId)) {
    if (await deps.users.hasSignedIn(member)) await deps.organizations.markJoined(member);
  }
}

/** How many times a member change reads again after the membership or the staying owner changed under it. */
const CHANGE_ATTEMPTS = 3;

/** Why a membership is dropped when its username is taken again, as its record says. */
export const LEFT_BEHIND_REASON = "its user was deleted from the pool, and the username taken again";

/**
 * Drops every membership left behind under `person`'s username, in any organisation, by a pool
 * user deleted since: the pool has just given the name to `person`, so a membership of it that
 * names another `sub` names nobody any more. Each goes with its record (in the organisation it
 * was in, by whoever took the name for `person`) in one write, and gives its places back (a
 * member's, and a pending invitation's if it was one). The organisation's other owners are not
 * checked: an owner who no longer exists keeps no organisation owned.
 */
async function dropLeftBehind(
  deps: { organizations: Pick<OrganizationStore, "membershipsNamed" | "changeMember">; clock: Clock },
  person: PoolPerson,
  by: AuditContext | undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const leftBehind = (await deps.organizations.membershipsNamed(person.username)).filter(
      (member) => member.sub !== person.sub,
    );
    let changedMeanwhile = false;
    for (const member of leftBehind) {
      const record =
        by &&
        auditRecord(by, deps.clock.now(), {
          action: "member.removed",
          organization_id: member.member_org_id,
          detail: { username: member.username, role: member.role, reason: LEFT_BEHIND_REASON },
        });
      const dropped = await deps.organizations.changeMember(member, { remove: true }, undefined, record);
      changedMeanwhile ||= !dropped;
    }
    if (!changedMeanwhile) return;
    if (attempt >= CHANGE_ATTEMPTS) {
      throw new RefusedError("concurrent_change", "The organisation's members changed at the same time; retry");
    }
  }
}

/**
 * A new portal user of the organisation with `role`: created in the customer pool, which mails
 * them a temporary password at `email` (nobody else sees it; the first sign-in sets their own),
 * then made a member, pending until they sign in. Memberships left behind under the username by
 * a user deleted from the pool since are dropped first (`dropLeftBehind`). Within the organisation's limits: at most
 * `MEMBERS_PER_ORGANIZATION` members and `PENDING_INVITES_PER_ORGANIZATION` invitations not yet
 * accepted, both places taken on the organisation before the user is made (so concurrent invites
 * cannot pass either, and a refused one makes and mails nobody) and given back if it is not.
 */
export async function inviteMember(
  deps: {
    organizations: Pick<
      OrganizationStore,
      | "getOrganization"
      | "pendingMembers"
      | "markJoined"
      | "reserveInvitation"
      | "releaseInvitation"
      | "addInvitedMember"
      | "membershipsNamed"
      | "changeMember"
    >;
    users: Pick<PortalDirectory, "invite" | "hasSignedIn" | "remove">;
    clock: Clock;
  },
  input: { organizationId: string; username: string; email: string; role: PortalRole },
  /** Who invites: the membership is written with the record of it. */
  by?: AuditContext,
): Promise<{ organization_id: string; username: string; role: PortalRole; status: string }> {
  const organization = await requireOrganization(deps.organizations, input.organizationId);
  const organizationId = organization.organization_id;
  await settleJoined(deps, organizationId);
  const reserved = await deps.organizations.reserveInvitation(organizationId, {
    members: MEMBERS_PER_ORGANIZATION,
    pending: PENDING_INVITES_PER_ORGANIZATION,
  });
  if (reserved === "members") throw tooManyMembers();
  if (reserved === "pending") {
    throw new LimitReachedError(
      { name: "pending_invites_per_organization", max: PENDING_INVITES_PER_ORGANIZATION },
      `The organisation has ${PENDING_INVITES_PER_ORGANIZATION} invitations nobody has accepted yet, the most it may have; wait for them to sign in, or remove one`,
    );
  }
  const member = await deps.users.invite({ username: input.username, email: input.email }).catch(async (error) => {
    await deps.organizations.releaseInvitation(organizationId);
    throw error;
  });
  const now = deps.clock.now();
  try {
    await dropLeftBehind(deps, member, by);
    await deps.organizations.addInvitedMember(
      {
        kind: "member",
        sub: member.sub,
        username: member.username,
        member_org_id: organizationId,
        role: input.role,
        created_at: isoSeconds(now),
        pending: true,
      },
      by &&
        auditRecord(by, now, {
          action: "user.invited",
          organization_id: organizationId,
          detail: { username: member.username, role: input.role },
        }),
    );
  } catch (error) {
    // Not stored after all: neither the user made for it nor its places stay.
    await deps.users.remove(member);
    await deps.organizations.releaseInvitation(organizationId);
    throw error;
  }
  return { organization_id: organizationId, username: member.username, role: input.role, status: member.status };
}

/** Makes the customer pool user `sub` a member of the organisation with `role`, within its member limit. */
export async function addMembership(
  deps: { organizations: Pick<OrganizationStore, "addMember">; clock: Clock },
  input: { organizationId: string; sub: string; username: string; role: PortalRole },
  /** Who adds them: the membership is written with the record of it. */
  by?: AuditContext,
): Promise<void> {
  const now = deps.clock.now();
  const added = await deps.organizations.addMember(
    {
      kind: "member",
      sub: input.sub,
      username: input.username,
      member_org_id: input.organizationId,
      role: input.role,
      created_at: isoSeconds(now),
    },
    MEMBERS_PER_ORGANIZATION,
    by &&
      auditRecord(by, now, {
        action: "user.invited",
        organization_id: input.organizationId,
        detail: { username: input.username, role: input.role },
      }),
  );
  if (!added) throw tooManyMembers();
}

/** Gives an app that exists today to the organisation; one another organisation owns is refused. */
export async function attachApp(
  deps: {
    organizations: Pick<OrganizationStore, "getOrganization" | "attachApp">;
    apps: Pick<AppStore, "getApp">;
    clock: Clock;
  },
  input: { organizationId: string; appId: string },
  /** Who attaches it: the change is written with the record of it. */
  by?: AuditContext,
): Promise<{ app_id: string; organization_id: string }> {
  const organization = await requireOrganization(deps.organizations, input.organizationId);
  await requireApp(deps.apps, input.appId);
  const now = deps.clock.now();
  const attached = await deps.organizations.attachApp(
    input.appId,
    organization.organization_id,
    isoSeconds(now),
    by &&
      auditRecord(by, now, {
        action: "app.attached",
        app_id: input.appId,
        organization_id: organization.organization_id,
      }),
    APPS_PER_ORGANIZATION,
  );
  if (attached === "full") throw tooManyApps();
  if (attached === "taken") {
    throw new RefusedError("app_owned_elsewhere", `App ${input.appId} belongs to another organisation`);
  }
  return { app_id: input.appId, organization_id: organization.organization_id };
}

/** The organisation's member `username`; anyone else, in another organisation or none, reads as not found. */
export async function requireMember(
  organizations: Pick<OrganizationStore, "memberNamed">,
  organizationId: string,
  username: string,
): Promise<MemberItem> {
  const member = await organizations.memberNamed(organizationId, username);
  if (!member) throw new NotFoundError("member_not_found", `No member of the organisation is named ${username}`);
  return member;
}

/**
 * Removes `username` from the organisation, or gives them another role, never leaving the
 * organisation without an owner: an owner's removal or demotion goes through only while another
 * owner stays (checked in the same transaction, so two owners removing each other cannot both
 * succeed). Returns the membership as it was.
 */
async function changeMembership(
  deps: { organizations: Pick<OrganizationStore, "memberNamed" | "membersOf" | "changeMember">; clock: Clock },
  input: { organizationId: string; username: string; change: { remove: true } | { role: PortalRole } },
  by: AuditContext | undefined,
): Promise<MemberItem> {
  for (let attempt = 1; ; attempt += 1) {
    const member = await requireMember(deps.organizations, input.organizationId, input.username);
    const staysOwner = "role" in input.change && input.change.role === "owner";
    const ownerStays =
      member.role === "owner" && !staysOwner ? await anotherOwner(deps.organizations, member) : undefined;
    if (member.role === "owner" && !staysOwner && !ownerStays) {
      throw new RefusedError(
        "last_owner",
        `${input.username} is the organisation's only owner: make another owner first`,
      );
    }
    const now = deps.clock.now();
    const record =
      by &&
      auditRecord(by, now, {
        action: "remove" in input.change ? "member.removed" : "member.role_changed",
        organization_id: input.organizationId,
        detail: {
          username: member.username,
          ...("role" in input.change ? { from: member.role, to: input.change.role } : { role: member.role }),
        },
      });
    if (await deps.organizations.changeMember(member, input.change, ownerStays, record)) return member;
    if (attempt >= CHANGE_ATTEMPTS) {
      throw new RefusedError("concurrent_change", "The organisation's members changed at the same time; retry");
    }
  }
}

/** An owner of `member`'s organisation other than them, if any. */
async function anotherOwner(
  organizations: Pick<OrganizationStore, "membersOf">,
  member: MemberItem,
): Promise<MemberItem | undefined> {
  let after: { username: string; sub: string } | undefined;
  for (;;) {
    const page = await organizations.membersOf(member.member_org_id, 100, after);
    const owner = page.members.find((other) => other.role === "owner" && other.sub !== member.sub);
    const last = page.members.at(-1);
    if (owner || !page.more || !last) return owner;
    after = { username: last.username, sub: last.sub };
  }
}

/** Gives the member `username` another role; the organisation keeps an owner. */
export async function changeMemberRole(
  deps: { organizations: Pick<OrganizationStore, "memberNamed" | "membersOf" | "changeMember">; clock: Clock },
  input: { organizationId: string; username: string; role: PortalRole },
  /** Who changes it: the change is written with the record of it. */
  by?: AuditContext,
): Promise<MemberView> {
  const member = await changeMembership(deps, { ...input, change: { role: input.role } }, by);
  // The portal authorizer reads the role at each decision it does not hold in its cache.
  return { username: member.username, role: input.role, created_at: member.created_at };
}

/**
 * Takes `username` out of the organisation: the membership goes first (the portal authorizer
 * refuses them from its next decision on), then the person it names (by their sub: the username
 * may name someone else by now, if the pool user was deleted and the name taken again) is signed
 * out everywhere and deleted from the customer pool, which frees the username.
 */
export async function removeMember(
  deps: {
    organizations: Pick<OrganizationStore, "memberNamed" | "membersOf" | "changeMember">;
    users: Pick<PortalDirectory, "remove">;
    clock: Clock;
  },
  input: { organizationId: string; username: string },
  /** Who removes them: the removal is written with the record of it. */
  by?: AuditContext,
): Promise<MemberView> {
  const member = await changeMembership(deps, { ...input, change: { remove: true } }, by);
  await deps.users.remove(member);
  return { username: member.username, role: member.role, created_at: member.created_at };
}

/**
 * Disables the member `username` and signs them out everywhere; the membership stays, so an
 * operator can enable them again. The pool is not a table: its change cannot share a transaction
 * with the record, so the record follows the change it reports.
 */
export async function disableMember(
  deps: {
    organizations: Pick<OrganizationStore, "memberNamed">;
    users: Pick<PortalDirectory, "disable">;
    audit: Pick<AuditTrail, "append">;
    clock: Clock;
  },
  input: { organizationId: string; username: string },
  by: AuditContext,
): Promise<MemberView> {
  const member = await requireMember(deps.organizations, input.organizationId, input.username);
  await deps.users.disable(member);
  await deps.audit.append(
    auditRecord(by, deps.clock.now(), {
      action: "member.disabled",
      organization_id: input.organizationId,
      detail: { username: member.username },
    }),
  );
  return { username: member.username, role: member.role, created_at: member.created_at };
}
