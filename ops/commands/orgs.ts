/**
 * `ops orgs`: organisations of the customer portal. Create one, invite its people with a role
 * (a user of the customer pool, who gets the pool's invitation mail), change a role, disable or
 * remove a member, and give it apps that existed before it.
 */
import { Option } from "commander";
import { PORTAL_AUTHORIZER } from "#shared/declarations/portal-api";
import { PORTAL_ROLES, type PortalRole } from "#shared/domain/organizations";
import {
  attachApp,
  changeMemberRole,
  createOrganization,
  disableMember,
  inviteMember,
  listOrganizations,
  type OrganizationView,
  removeMember,
} from "#shared/use-cases/accounts/organizations";
import { appId, emailAddress, organizationId } from "../arguments.ts";
import { argument, type Given, type GroupDefinition, requiredOption } from "../definitions.ts";
import { fields, table } from "../output.ts";

const theOrganization = () => argument("<organization-id>", "the organisation", organizationId);
const theMember = () => argument("<username>", "the member");
const roleOption = () =>
  new Option("--role <role>", "owner: everything; developer: apps, keys, webhooks; viewer: read only")
    .choices(PORTAL_ROLES)
    .makeOptionMandatory();
const cached = `Requests the portal's authorizer already answered stand for up to ${PORTAL_AUTHORIZER.cacheTtlSeconds} s.`;

export const ORGS: GroupDefinition = {
  name: "orgs",
  description: "organisations of the customer portal, their people and apps",
  commands: [
    {
      name: "create",
      description: "create an organisation in this environment",
      arguments: [argument("<name>", "its name, as the portal shows it")],
      reaches: "target",
      run: async (target, { args: [name] }: Given<[string]>) => {
        const organization = await createOrganization(
          { organizations: target.organizations, clock: target.clock },
          { name, environment: target.environment },
          await target.operator(),
        );
        return {
          json: organization,
          text: [
            `Created ${organization.organization_id} in ${target.label}`,
            fields([
              ["name", organization.name],
              ["environment", organization.environment],
            ]),
            "Next: ops orgs invite <organization-id> <username> --role owner, and ops orgs attach-app for apps it already has.",
          ].join("\n"),
        };
      },
    },
    {
      name: "list",
      description: "every organisation, oldest first",
      reaches: "target",
      run: async (target) => {
        const organizations = await listOrganizations({ organizations: target.organizations });
        return {
          json: { organizations },
          text:
            organizations.length === 0
              ? `No organisations in ${target.label}`
              : table<OrganizationView>(
                  [
                    ["ID", (organization) => organization.organization_id],
                    ["NAME", (organization) => organization.name],
                    ["CREATED", (organization) => organization.created_at],
                  ],
                  organizations,
                ),
        };
      },
    },
    {
      name: "invite",
      description: "create a portal user of the organisation with a role; the pool mails them a temporary password",
      arguments: [theOrganization(), argument("<username>", "how they sign in")],
      options: [
        roleOption(),
        requiredOption(
          "--email <address>",
          "where the pool mails the invitation, and later forgotten-password codes",
          emailAddress,
        ),
      ],
      reaches: "target",
      run: async (
        target,
        { args: [organization, username], options }: Given<[string, string], { role: PortalRole; email: string }>,
      ) => {
        const invited = await inviteMember(
          { organizations: target.organizations, users: await target.portalUsers(), clock: target.clock },
          { organizationId: organization, username, role: options.role, email: options.email },
          await target.operator(),
        );
        return {
          json: invited,
          text: [
            `Invited ${invited.username} to ${invited.organization_id} as ${invited.role} in ${target.label}`,
            `The pool mailed the invitation with a temporary password to ${options.email}; the first sign-in to the portal sets a new password.`,
          ].join("\n"),
        };
      },
    },
    {
      name: "attach-app",
      description: "give an existing app to the organisation, so its people see it in the portal",
      arguments: [theOrganization(), argument("<app-id>", "the app", appId)],
      reaches: "target",
      run: async (target, { args: [organization, app] }: Given<[string, string]>) => {
        const attached = await attachApp(
          { organizations: target.organizations, apps: target.apps, clock: target.clock },
          { organizationId: organization, appId: app },
          await target.operator(),
        );
        return { json: attached, text: `App ${attached.app_id} now belongs to ${attached.organization_id}.` };
      },
    },
    {
      name: "set-role",
      description: "give a member of the organisation another role; the organisation keeps an owner",
      arguments: [theOrganization(), theMember()],
      options: [roleOption()],
      reaches: "target",
      run: async (
        target,
        { args: [organization, username], options }: Given<[string, string], { role: PortalRole }>,
      ) => {
        const member = await changeMemberRole(
          { organizations: target.organizations, clock: target.clock },
          { organizationId: organization, username, role: options.role },
          await target.operator(),
        );
        return { json: member, text: `${member.username} is now ${member.role} in ${organization}. ${cached}` };
      },
    },
    {
      name: "remove-member",
      description: "end a member's membership, sign them out everywhere and delete their user",
      arguments: [theOrganization(), theMember()],
      reaches: "target",
      run: async (target, { args: [organization, username] }: Given<[string, string]>) => {
        const member = await removeMember(
          { organizations: target.organizations, users: await target.portalUsers(), clock: target.clock },
          { organizationId: organization, username },
          await target.operator(),
        );
        return {
          json: { ...member, removed: true },
          text: `${member.username} (${member.role}) is no longer a member of ${organization}, signed out everywhere and deleted. ${cached}`,
        };
      },
    },
    {
      name: "disable-member",
      description: "disable a member's user and sign them out everywhere; the membership stays",
      arguments: [theOrganization(), theMember()],
      reaches: "target",
      run: async (target, { args: [organization, username] }: Given<[string, string]>) => {
        const member = await disableMember(
          {
            organizations: target.organizations,
            users: await target.portalUsers(),
            audit: target.audit,
            clock: target.clock,
          },
          { organizationId: organization, username },
          await target.operator(),
        );
        return {
          json: { ...member, enabled: false },
          text: `${member.username} is disabled and signed out everywhere: they cannot sign in, and their sessions cannot refresh. ${cached}`,
        };
      },
    },
  ],
};
