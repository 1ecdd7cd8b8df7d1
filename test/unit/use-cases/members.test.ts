/**
 * An organisation's people as owners and operators manage them: roles change and people leave,
 * never leaving the organisation without an owner; invitations stop at the pending and member
 * limits, and a refused one leaves no user behind.
 */
import { describe, expect, it } from "vitest";
import type { AuditContext } from "#shared/domain/audit";
import { RefusedError } from "#shared/domain/errors";
import { newId } from "#shared/domain/ids";
import type { MemberItem, OrganizationItem, PortalRole } from "#shared/domain/organizations";
import type { AuditRecord } from "#shared/domain/responses/audit";
import { MEMBERS_PER_ORGANIZATION, PENDING_INVITES_PER_ORGANIZATION } from "#shared/domain/tenant-limits";
import type { PoolPerson, PortalDirectory, StaffMember } from "#shared/ports/identity";
import type { OrganizationStore } from "#shared/ports/organization-store";
import {
  changeMemberRole,
  inviteMember,
  LEFT_BEHIND_REASON,
  removeMember,
} from "#shared/use-cases/accounts/organizations";
import { InMemoryAuditTrail } from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const ORGANIZATION = newId("organization");
const by: AuditContext = {
  actor: { pool: "portal", sub: "sub-owner", username: "owner" },
  requestId: "req-1",
  sourceIp: "198.51.100.7",
  organizationId: ORGANIZATION,
};

/** Memberships in a Map, a change holding only while what it was read with still holds, as the table's. */
class Memberships
  implements
    Pick<
      OrganizationStore,
      | "getOrganization"
      | "memberNamed"
      | "membersOf"
      | "changeMember"
      | "pendingMembers"
      | "markJoined"
      | "reserveInvitation"
      | "releaseInvitation"
      | "addInvitedMember"
      | "membershipsNamed"
    >
{
  readonly members = new Map<string, MemberItem>();
  readonly trail = new InMemoryAuditTrail();
  /** Invitations whose places are taken and whose membership is not stored yet. */
  reserved = 0;

  put(
    username: string,
    role: PortalRole,
    pending?: true,
    { sub = `sub-${username}`, organizationId = ORGANIZATION } = {},
  ): MemberItem {
    const member: MemberItem = {
      kind: "member",
      sub,
      username,
      member_org_id: organizationId,
      role,
      created_at: T0,
      ...(pending ? { pending } : {}),
    };
    this.members.set(sub, member);
    return member;
  }

  async getOrganization(organizationId: string): Promise<OrganizationItem | undefined> {
    return organizationId === ORGANIZATION
      ? {
          kind: "organization",
          organization_id: ORGANIZATION,
          name: "Acme",
          environment: "sandbox",
          created_at: T0,
        }
      : undefined;
  }

  async memberNamed(organizationId: string, username: string): Promise<MemberItem | undefined> {
    return [...this.members.values()].find((m) => m.member_org_id === organizationId && m.username === username);
  }

  async membershipsNamed(username: string): Promise<MemberItem[]> {
    return [...this.members.values()].filter((m) => m.username === username);
  }

  async membersOf(organizationId: string): Promise<{ members: MemberItem[]; more: boolean }> {
    const members = [...this.members.values()].filter((m) => m.member_org_id === organizationId);
    return { members: members.sort((a, b) => a.username.localeCompare(b.username)), more: false };
  }

  async changeMember(
    member: MemberItem,
    change: { remove: true } | { role: PortalRole },
    ownerStays: MemberItem | undefined,
    audit?: AuditRecord,
  ): Promise<boolean> {
    const holds = (item: MemberItem, role: PortalRole) =>
      this.members.get(item.sub)?.role === role && this.members.get(item.sub)?.member_org_id === item.member_org_id;
    if (!holds(member, member.role) || (ownerStays && !holds(ownerStays, "owner"))) return false;
    await this.trail.keep(audit);
    if ("remove" in change) this.members.delete(member.sub);
    else this.members.set(member.sub, { ...member, role: change.role });
    return true;
  }

  async pendingMembers(organizationId: string): Promise<MemberItem[]> {
    return (await this.membersOf(organizationId)).members.filter((m) => m.pending);
  }

  async markJoined(member: MemberItem): Promise<void> {
    const { pending: _, ...joined } = member;
    this.members.set(member.sub, joined);
  }

  async reserveInvitation(
    organizationId: string,
    limits: { members: number; pending: number },
  ): Promise<"reserved" | "members" | "pending"> {
    const { members } = await this.membersOf(organizationId);
    if (members.length + this.reserved >= limits.members) return "members";
    if (members.filter((m) => m.pending).length + this.reserved >= limits.pending) return "pending";
    this.reserved += 1;
    return "reserved";
  }

  async releaseInvitation(): Promise<void> {
    this.reserved -= 1;
  }

  async addInvitedMember(member: MemberItem, audit?: AuditRecord): Promise<void> {
    await this.trail.keep(audit);
    this.members.set(member.sub, member);
    this.reserved -= 1;
  }
}

/** The customer pool: who was invited (by username), who has signed in and who was removed (by sub). */
class Pool implements Pick<PortalDirectory, "invite" | "hasSignedIn" | "remove"> {
  readonly invited: string[] = [];
  readonly removed: string[] = [];
  readonly signedIn = new Set<string>();

  async invite(input: { username: string; email: string }): Promise<StaffMember> {
    this.invited.push(input.username);
    return {
      username: input.username,
      sub: `sub-${input.username}`,
      enabled: true,
      status: "FORCE_CHANGE_PASSWORD",
      groups: [],
      created_at: T0,
    };
  }

  async hasSignedIn(person: PoolPerson): Promise<boolean> {
    return this.signedIn.has(person.sub);
  }

  async remove(person: PoolPerson): Promise<void> {
    this.removed.push(person.sub);
  }
}

function setup() {
  const organizations = new Memberships();
  const users = new Pool();
  return { organizations, users, deps: { organizations, users, clock: new FixedClock(T0) } };
}

describe("roles and removals", () => {
  it("never demotes or removes the last owner, and records nothing for a refusal", async () => {
    const { organizations, deps } = setup();
    organizations.put("owner", "owner");
    organizations.put("dev", "developer");
    const input = { organizationId: ORGANIZATION, username: "owner" };
    await expect(changeMemberRole(deps, { ...input, role: "viewer" }, by)).rejects.toMatchObject({
      code: "last_owner",
    });
    await expect(removeMember(deps, input, by)).rejects.toMatchObject({ code: "last_owner" });
    expect(organizations.trail.records).toEqual([]);
    expect(organizations.members.get("sub-owner")?.role).toBe("owner");
  });

  it("lets an owner go once another stays, recording it, and removes their user", async () => {
    const { organizations, users, deps } = setup();
    organizations.put("first", "owner");
    organizations.put("second", "developer");
    await changeMemberRole(deps, { organizationId: ORGANIZATION, username: "second", role: "owner" }, by);
    const removed = await removeMember(deps, { organizationId: ORGANIZATION, username: "first" }, by);
    expect(removed).toEqual({ username: "first", role: "owner", created_at: T0 });
    expect(users.removed).toEqual(["sub-first"]);
    expect(organizations.trail.records.map((record) => [record.action, record.detail])).toEqual([
      ["member.role_changed", { username: "second", from: "developer", to: "owner" }],
      ["member.removed", { username: "first", role: "owner" }],
    ]);
  });

  it("reads someone of another organisation, or nobody, as not found", async () => {
    const { deps } = setup();
    await expect(
      removeMember(deps, { organizationId: newId("organization"), username: "owner" }, by),
    ).rejects.toMatchObject({ code: "member_not_found" });
  });
});

describe("invitations", () => {
  const invite = (deps: ReturnType<typeof setup>["deps"], username: string) =>
    inviteMember(
      deps,
      { organizationId: ORGANIZATION, username, email: `${username}@example.com`, role: "viewer" },
      by,
    );

  it(`holds ${PENDING_INVITES_PER_ORGANIZATION} pending; an invitee found signed in no longer counts`, async () => {
    const { organizations, users, deps } = setup();
    organizations.put("owner", "owner");
    for (let n = 0; n < PENDING_INVITES_PER_ORGANIZATION; n++) await invite(deps, `p${n}`);
    await expect(invite(deps, "one-more")).rejects.toMatchObject({
      code: "limit_reached",
      limit: { name: "pending_invites_per_organization", max: PENDING_INVITES_PER_ORGANIZATION },
    });
    expect(users.invited).not.toContain("one-more");

    users.signedIn.add("sub-p0");
    await invite(deps, "one-more");
    expect(organizations.members.get("sub-p0")?.pending).toBeUndefined();
    expect(organizations.members.get("sub-one-more")?.pending).toBe(true);
  });

  it(`holds ${MEMBERS_PER_ORGANIZATION} members: an invite beyond them makes and mails nobody`, async () => {
    const { organizations, users, deps } = setup();
    for (let n = 0; n < MEMBERS_PER_ORGANIZATION - 1; n++) organizations.put(`m${n}`, n === 0 ? "owner" : "viewer");
    await invite(deps, "last");
    await expect(invite(deps, "beyond")).rejects.toMatchObject({
      code: "limit_reached",
      limit: { name: "members_per_organization", max: MEMBERS_PER_ORGANIZATION },
    });
    expect(users.invited).toEqual(["last"]);
    expect(organizations.reserved).toBe(0);
  });

  it("drops the memberships a deleted user left under the name, in every organisation, each with its record", async () => {
    const { organizations, users, deps } = setup();
    const elsewhere = newId("organization");
    organizations.put("owner", "owner");
    organizations.put("reused", "developer", true, { sub: "sub-gone-1", organizationId: elsewhere });
    organizations.put("reused", "owner", undefined, { sub: "sub-gone-2" });
    organizations.put("other", "viewer", undefined, { organizationId: elsewhere });

    await invite(deps, "reused");

    expect(users.invited).toEqual(["reused"]);
    expect([...organizations.members.values()].filter((m) => m.username === "reused")).toEqual([
      expect.objectContaining({ sub: "sub-reused", member_org_id: ORGANIZATION, role: "viewer", pending: true }),
    ]);
    expect(organizations.members.get("sub-other")?.member_org_id).toBe(elsewhere);
    expect(organizations.trail.records.map((record) => [record.action, record.organization_id, record.detail])).toEqual(
      [
        ["member.removed", elsewhere, { username: "reused", role: "developer", reason: LEFT_BEHIND_REASON }],
        ["member.removed", ORGANIZATION, { username: "reused", role: "owner", reason: LEFT_BEHIND_REASON }],
        ["user.invited", ORGANIZATION, { username: "reused", role: "viewer" }],
      ],
    );
    expect(organizations.trail.records.every((record) => record.actor.sub === by.actor.sub)).toBe(true);
    expect(organizations.reserved).toBe(0);
  });

  it("reads a left-behind membership again when it changed under its drop, and undoes the invitation if it keeps changing", async () => {
    const { organizations, users, deps } = setup();
    organizations.put("owner", "owner");
    organizations.put("reused", "viewer", undefined, { sub: "sub-gone" });
    const change = organizations.changeMember.bind(organizations);
    let changes = 0;
    organizations.changeMember = async (member, ...rest) => {
      // Another owner gives the stale membership a role at the moment of the first drop.
      changes += 1;
      if (changes === 1) organizations.put("reused", "developer", undefined, { sub: "sub-gone" });
      return change(member, ...rest);
    };
    await invite(deps, "reused");
    expect(organizations.members.has("sub-gone")).toBe(false);
    expect(changes).toBe(2);

    organizations.put("again", "viewer", undefined, { sub: "sub-gone-again" });
    organizations.changeMember = async () => false;
    await expect(invite(deps, "again")).rejects.toMatchObject({ code: "concurrent_change" });
    expect(users.removed).toEqual(["sub-again"]);
    expect(organizations.members.has("sub-again")).toBe(false);
    expect(organizations.reserved).toBe(0);
  });

  it("gives an invitation's places back when its user cannot be made, or its membership not stored", async () => {
    const { organizations, users, deps } = setup();
    organizations.put("owner", "owner");
    users.invite = async () => {
      throw new RefusedError("user_exists", "The username is taken; choose another");
    };
    await expect(invite(deps, "taken")).rejects.toMatchObject({ code: "user_exists" });
    expect(organizations.reserved).toBe(0);

    const made = new Pool();
    organizations.addInvitedMember = async () => {
      throw new Error("the table refused the write");
    };
    await expect(invite({ ...deps, users: made }, "unstored")).rejects.toThrow(/refused the write/);
    expect(made.removed).toEqual(["sub-unstored"]);
    expect(organizations.reserved).toBe(0);
  });
});
