import type { Environment } from "../../domain/environments.ts";
import type { Member, PortalRole } from "../../domain/organizations.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";

/** Who is signed in: their role and their organisation, for the page to show and to offer only what they may do. */
export async function whoAmI(
  deps: { organizations: Pick<OrganizationStore, "getOrganization"> },
  member: Member,
): Promise<{
  username: string;
  role: PortalRole;
  organization_id: string;
  organization_name: string;
  environment: Environment;
}> {
  const organization = await deps.organizations.getOrganization(member.organizationId);
  if (!organization) throw new Error("A member's organisation is missing");
  return {
    username: member.username,
    role: member.role,
    organization_id: organization.organization_id,
    organization_name: organization.name,
    environment: organization.environment,
  };
}
