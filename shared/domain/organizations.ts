/**
 * Organisations: a customer company in one environment. It owns apps; its people sign in to
 * the portal with a user of the environment's customer pool, each with one role.
 */
import type { AuditContext } from "./audit.ts";
import type { Environment } from "./environments.ts";
import * as z from "./zod.ts";

/** `owner`: everything, users too; `developer`: apps, keys, webhooks; `viewer`: read only. */
export const PORTAL_ROLES = ["owner", "developer", "viewer"] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];

/** What each role may do, as the portal routes name it: a role holds its own grant and every weaker one. */
export const ROLE_GRANTS: Record<PortalRole, readonly PortalRole[]> = {
  owner: ["owner", "developer", "viewer"],
  developer: ["developer", "viewer"],
  viewer: ["viewer"],
};

export const roleSchema = z.enum(PORTAL_ROLES);

/** An organisation. */
export interface OrganizationItem {
  kind: "organization";
  organization_id: string;
  name: string;
  environment: Environment;
  created_at: string;
  /**
   * How many apps it owns, counted as each is given to it (created in it or attached) in the
   * same write; an organisation stored before apps were counted has none until its first app
   * counts them (`OrganizationStore.appsOwned` counts them meanwhile).
   */
  app_count?: number;
  /** How many members it has, counted the same way as its apps. */
  member_count?: number;
  /**
   * How many of its members are invited and not yet known to have signed in, counted the same
   * way: a place taken before the invitee's user is made, given back when they join or go.
   */
  pending_count?: number;
}

/**
 * A portal user's membership, found by `sub` (the user's id in the customer pool), so the portal
 * authorizer finds the caller's organisation and role in one read.
 */
export interface MemberItem {
  kind: "member";
  sub: string;
  username: string;
  member_org_id: string;
  role: PortalRole;
  created_at: string;
  /** Invited and not yet known to have signed in: a pending invitation of the organisation. */
  pending?: true;
}

/** Who is calling the portal API, as its authorizer found them. */
export interface Member {
  sub: string;
  username: string;
  organizationId: string;
  role: PortalRole;
}

/** A portal request's caller: the member, and what their audited actions record. */
export interface PortalCaller {
  member: Member;
  audit: AuditContext;
}
