import type { AppItem } from "../domain/apps.ts";
import type { MemberItem, OrganizationItem, PortalRole } from "../domain/organizations.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";

/**
 * Organisations, their portal users' memberships, and which apps each owns. A change made by a
 * person carries its audit record (`audit`): both are written, or neither.
 */
export interface OrganizationStore {
  /** Stores a new organisation; refuses an id that exists. */
  createOrganization(organization: OrganizationItem, audit?: AuditRecord): Promise<void>;
  getOrganization(organizationId: string): Promise<OrganizationItem | undefined>;
  /** How many apps the organisation owns, read consistently; 0 for one that does not exist. */
  appsOwned(organizationId: string): Promise<number>;
  /** Every organisation, oldest first. */
  listOrganizations(): Promise<OrganizationItem[]>;
  /** How many members the organisation has, read consistently; 0 for one that does not exist. */
  memberCount(organizationId: string): Promise<number>;
  /**
   * Stores a portal user's membership, taking one of the organisation's `membersPerOrganization`
   * places in the same write; false, storing nothing, when none is free. Refuses a user who
   * already belongs to an organisation.
   */
  addMember(member: MemberItem, membersPerOrganization: number, audit?: AuditRecord): Promise<boolean>;
  /**
   * Takes a member's place and a pending invitation's place at once, before the invitee's user is
   * made: `reserved`, or which of the two the organisation has `limits` of already, taking nothing.
   */
  reserveInvitation(
    organizationId: string,
    limits: { members: number; pending: number },
  ): Promise<"reserved" | "members" | "pending">;
  /** Gives back the places `reserveInvitation` took, for an invitee whose user was not made after all. */
  releaseInvitation(organizationId: string): Promise<void>;
  /** Stores an invited member's membership (pending) in the places `reserveInvitation` took. */
  addInvitedMember(member: MemberItem, audit?: AuditRecord): Promise<void>;
  /** The organisation's members invited and not yet known to have signed in. */
  pendingMembers(organizationId: string): Promise<MemberItem[]>;
  /**
   * Records that an invited member has signed in: their invitation no longer counts as pending,
   * and its place is given back in the same write. A write of the organisation at the same
   * moment may leave them pending, for the next call to record.
   */
  markJoined(member: MemberItem): Promise<void>;
  /** The membership of the customer pool user `sub`: one read. */
  getMember(sub: string): Promise<MemberItem | undefined>;
  /** The organisation's member who signs in as `username`, if any. */
  memberNamed(organizationId: string, username: string): Promise<MemberItem | undefined>;
  /**
   * Every membership, in any organisation, under `username`: the person who holds the name now,
   * and any left behind by a pool user deleted since (they name another `sub`).
   */
  membershipsNamed(username: string): Promise<MemberItem[]>;
  /**
   * Ends `member`'s membership, or gives them `role` instead of theirs: only while they still
   * hold the role they were read with, and, with `ownerStays`, while that other member is still
   * one of the organisation's owners (so no change leaves it without one). False when either no
   * longer holds: the caller reads again.
   */
  changeMember(
    member: MemberItem,
    change: { remove: true } | { role: PortalRole },
    ownerStays: MemberItem | undefined,
    audit?: AuditRecord,
  ): Promise<boolean>;
  /**
   * Gives the app to the organisation, unless another owns it already: `taken` when the app does
   * not exist or another organisation owns it. An app new to the organisation takes one of its
   * places in the same write: `full`, writing nothing, when it owns `appsPerOrganization` apps
   * already. Attaching an app it owns again takes no place.
   */
  attachApp(
    appId: string,
    organizationId: string,
    now: string,
    audit: AuditRecord | undefined,
    appsPerOrganization: number,
  ): Promise<"attached" | "taken" | "full">;
  /** Up to `limit` of the organisation's apps in creation order, after `afterAppId`; `more` when others follow. */
  appsOf(organizationId: string, limit: number, afterAppId?: string): Promise<{ apps: AppItem[]; more: boolean }>;
  /** Up to `limit` of the organisation's members by username, after `after`; `more` when others follow. */
  membersOf(
    organizationId: string,
    limit: number,
    after?: { username: string; sub: string },
  ): Promise<{ members: MemberItem[]; more: boolean }>;
}
