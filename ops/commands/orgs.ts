/**
 * `ops orgs`: organisations of the customer portal. Create one, invite its people with a role
 * (a user of the customer pool, temporary password shown once), and give it apps that existed
 * before it.
 */
import { type Command, Option } from "commander";
import { PORTAL_ROLES, type PortalRole } from "#shared/domain/organizations";
import {
  attachApp,
  createOrganization,
  inviteMember,
  listOrganizations,
  type OrganizationView,
} from "#shared/use-cases/accounts/organizations";
import { appId, organizationId } from "../arguments.ts";
import { fields, table } from "../output.ts";
import type { Run } from "../program.ts";
import { emailAddress } from "./staff.ts";

export function addOrgsCommands(program: Command, run: Run): void {
  const orgs = program.command("orgs").description("organisations of the customer portal, their people and apps");

  orgs
    .command("create")
    .description("create an organisation in this environment")
    .argument("<name>", "its name, as the portal shows it")
    .action((name: string, _options: object, command: Command) =>
      run(command, async (target) => {
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
      }),
    );

  orgs
    .command("list")
    .description("every organisation, oldest first")
    .action((_options: object, command: Command) =>
      run(command, async (target) => {
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
      }),
    );

  orgs
    .command("invite")
    .description("create a portal user of the organisation with a role; prints the temporary password once")
    .argument("<organization-id>", "the organisation", organizationId)
    .argument("<username>", "how they sign in")
    .addOption(
      new Option("--role <role>", "owner: everything; developer: apps, keys, webhooks; viewer: read only")
        .choices(PORTAL_ROLES)
        .makeOptionMandatory(),
    )
    .option("--email <address>", "where the pool sends a forgotten-password code", emailAddress)
    .action((organization: string, username: string, options: { role: PortalRole; email?: string }, command: Command) =>
      run(command, async (target) => {
        const invited = await inviteMember(
          { organizations: target.organizations, users: await target.portalUsers(), clock: target.clock },
          {
            organizationId: organization,
            username,
            role: options.role,
            ...(options.email ? { email: options.email } : {}),
          },
          await target.operator(),
        );
        return {
          json: invited,
          text: [
            `Invited ${invited.username} to ${invited.organization_id} as ${invited.role} in ${target.label}`,
            "",
            "Shown once: hand it over now, it cannot be read back.",
            fields([["temporary password", invited.temporary_password]]),
            "The first sign-in to the portal sets a new password.",
          ].join("\n"),
        };
      }),
    );

  orgs
    .command("attach-app")
    .description("give an existing app to the organisation, so its people see it in the portal")
    .argument("<organization-id>", "the organisation", organizationId)
    .argument("<app-id>", "the app", appId)
    .action((organization: string, app: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const attached = await attachApp(
          { organizations: target.organizations, apps: target.apps, clock: target.clock },
          { organizationId: organization, appId: app },
          await target.operator(),
        );
        return { json: attached, text: `App ${attached.app_id} now belongs to ${attached.organization_id}.` };
      }),
    );
}
