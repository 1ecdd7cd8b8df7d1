import type { Environment } from "../../domain/environments.ts";
import type { Member, PortalRole } from "../../domain/organizations.ts";
import { APPS_PER_ORGANIZATION, SENDING_LIMITS, type SendingKind } from "../../domain/tenant-limits.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";

/**
 * Who is signed in: their role and their organisation, for the page to show and to offer only
 * what they may do, and how much of the organisation's limits it uses.
 */
export async function whoAmI(
  deps: { organizations: Pick<OrganizationStore, "getOrganization" | "appsOwned"> },
  member: Member,
): Promise<{
  username: string;
  role: PortalRole;
  organization_id: string;
  organization_name: string;
  environment: Environment;
  limits: {
    apps: { used: number; limit: number };
    sending: Record<SendingKind, { most: number; per_seconds: number }>;
  };
}> {
  const [organization, apps] = await Promise.all([
    deps.organizations.getOrganization(member.organizationId),
    deps.organizations.appsOwned(member.organizationId),
  ]);
  if (!organization) throw new Error("A member's organisation is missing");
  return {
    username: member.username,
    role: member.role,
    organization_id: organization.organization_id,
    organization_name: organization.name,
    environment: organization.environment,
    limits: {
      apps: { used: apps, limit: APPS_PER_ORGANIZATION },
      sending: {
        test: { most: SENDING_LIMITS.test.most, per_seconds: SENDING_LIMITS.test.perSeconds },
        manual: { most: SENDING_LIMITS.manual.most, per_seconds: SENDING_LIMITS.manual.perSeconds },
      },
    },
  };
}
