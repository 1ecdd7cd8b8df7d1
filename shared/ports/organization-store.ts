import type { AppItem } from "../domain/apps.ts";
import type { MemberItem, OrganizationItem } from "../domain/organizations.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";

/**
 * Organisations, their portal users' memberships, and which apps each owns. A change made by a
 * person carries its audit record (`audit`): both are written, or neither.
 */
export interface OrganizationStore {
  /** Stores a new organisation; refuses an id that exists. */
  createOrganization(organization: OrganizationItem, audit?: AuditRecord): Promise<void>;
  getOrganization(organizationId: string): Promise<OrganizationItem | undefined>;
  /** Every organisation, oldest first. */
  listOrganizations(): Promise<OrganizationItem[]>;
  /** Stores a portal user's membership; refuses a user who already belongs to one. */
  addMember(member: MemberItem, audit?: AuditRecord): Promise<void>;
  /** The membership of the customer pool user `sub`: one read. */
  getMember(sub: string): Promise<MemberItem | undefined>;
  /**
   * Gives the app to the organisation, unless another owns it already. False when the app does
   * not exist or another organisation owns it.
   */
  attachApp(appId: string, organizationId: string, now: string, audit?: AuditRecord): Promise<boolean>;
  /** Up to `limit` of the organisation's apps in creation order, after `afterAppId`; `more` when others follow. */
  appsOf(organizationId: string, limit: number, afterAppId?: string): Promise<{ apps: AppItem[]; more: boolean }>;
  /** Up to `limit` of the organisation's members by username, after `after`; `more` when others follow. */
  membersOf(
    organizationId: string,
    limit: number,
    after?: { username: string; sub: string },
  ): Promise<{ members: MemberItem[]; more: boolean }>;
}
