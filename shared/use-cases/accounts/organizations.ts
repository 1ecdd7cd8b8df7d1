/**
 * Organisations, as operators manage them: create one, invite its people to the portal with a
 * role, and give it the apps that existed before it.
 */

import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import type { Environment } from "../../domain/environments.ts";
import { NotFoundError, RefusedError } from "../../domain/errors.ts";
import { isId, newId } from "../../domain/ids.ts";
import { memberPk, type OrganizationItem, orgPk, type PortalRole } from "../../domain/organizations.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { StaffDirectory } from "../../ports/identity.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import { checkAppName } from "./apps.ts";
import { requireApp } from "./current-app.ts";

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
    pk: orgPk(organizationId),
    kind: "organization",
    organization_id: organizationId,
    name,
    environment: input.environment,
    created_at: isoSeconds(deps.clock.now()),
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

/**
 * A new portal user of the organisation with `role`: created in the customer pool with a
 * temporary password (shown once; the first sign-in sets their own), then made a member.
 */
export async function inviteMember(
  deps: {
    organizations: Pick<OrganizationStore, "getOrganization" | "addMember">;
    users: Pick<StaffDirectory, "add">;
    clock: Clock;
  },
  input: { organizationId: string; username: string; email?: string; role: PortalRole },
  /** Who invites: the membership is written with the record of it. */
  by?: AuditContext,
): Promise<{
  organization_id: string;
  username: string;
  role: PortalRole;
  status: string;
  temporary_password: string;
}> {
  const organization = await requireOrganization(deps.organizations, input.organizationId);
  const { member, temporaryPassword } = await deps.users.add({
    username: input.username,
    groups: [],
    ...(input.email ? { email: input.email } : {}),
  });
  await addMembership(
    deps,
    {
      organizationId: organization.organization_id,
      sub: member.sub,
      username: member.username,
      role: input.role,
    },
    by,
  );
  return {
    organization_id: organization.organization_id,
    username: member.username,
    role: input.role,
    status: member.status,
    temporary_password: temporaryPassword,
  };
}

/** Makes the customer pool user `sub` a member of the organisation with `role`. */
export async function addMembership(
  deps: { organizations: Pick<OrganizationStore, "addMember">; clock: Clock },
  input: { organizationId: string; sub: string; username: string; role: PortalRole },
  /** Who adds them: the membership is written with the record of it. */
  by?: AuditContext,
): Promise<void> {
  const now = deps.clock.now();
  await deps.organizations.addMember(
    {
      pk: memberPk(input.sub),
      kind: "member",
      sub: input.sub,
      username: input.username,
      member_org_id: input.organizationId,
      role: input.role,
      created_at: isoSeconds(now),
    },
    by &&
      auditRecord(by, now, {
        action: "user.invited",
        organization_id: input.organizationId,
        detail: { username: input.username, role: input.role },
      }),
  );
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
  );
  if (!attached) {
    throw new RefusedError("app_owned_elsewhere", `App ${input.appId} belongs to another organisation`);
  }
  return { app_id: input.appId, organization_id: organization.organization_id };
}
