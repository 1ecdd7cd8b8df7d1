/**
 * The local runtime's logins: a staff reviewer and admin, and a portal owner of a dev
 * organisation that owns the dev app. Created through the pools' own admin API and the
 * organisation use cases on first start, and kept in dev-logins.json, so the console and the
 * portal can be signed in to at once.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  UsernameExistsException,
} from "@aws-sdk/client-cognito-identity-provider";
import { z } from "zod";
import type { Environment } from "#shared/domain/environments";
import { PORTAL_ROLES, type PortalRole } from "#shared/domain/organizations";
import { type StaffGroup, staffPassword } from "#shared/domain/staff";
import type { AppStore } from "#shared/ports/app-store";
import type { Clock } from "#shared/ports/clock";
import type { OrganizationStore } from "#shared/ports/organization-store";
import { addMembership, attachApp, createOrganization } from "#shared/use-cases/accounts/organizations";
import { writeDataFile } from "./data-file.ts";

const SEEDED_STAFF: { username: string; groups: StaffGroup[] }[] = [
  { username: "dev-reviewer", groups: ["reviewers"] },
  { username: "dev-admin", groups: ["admins"] },
];
const SEEDED_OWNER = "dev-owner";

const staffUserSchema = z.object({ username: z.string(), password: z.string(), groups: z.array(z.string()) });
const portalUserSchema = z.object({
  username: z.string(),
  password: z.string(),
  organization_id: z.string(),
  role: z.enum(PORTAL_ROLES),
});

const devLoginsFile = z.object({
  identity_endpoint: z.string(),
  region: z.string(),
  staff: z.object({
    user_pool_id: z.string(),
    client_id: z.string(),
    api_url: z.string(),
    console_url: z.string(),
    users: z.array(staffUserSchema),
  }),
  portal: z.object({
    user_pool_id: z.string(),
    client_id: z.string(),
    api_url: z.string(),
    page_url: z.string(),
    users: z.array(portalUserSchema),
  }),
});
export type DevLogins = z.infer<typeof devLoginsFile>;

export function devLoginsPath(dataDir: string): string {
  return path.resolve(dataDir, "dev-logins.json");
}

/** What an earlier start wrote: each user's password, and the dev organisation's id. */
function known(file: string): { passwords: Map<string, string>; organizationId?: string } {
  if (!existsSync(file)) return { passwords: new Map() };
  const loose = z
    .object({
      staff: z.object({ users: z.array(staffUserSchema) }).optional(),
      portal: z.object({ users: z.array(portalUserSchema) }).optional(),
    })
    .safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!loose.success) return { passwords: new Map() };
  const users = [...(loose.data.staff?.users ?? []), ...(loose.data.portal?.users ?? [])];
  return {
    passwords: new Map(users.map((user) => [user.username, user.password])),
    organizationId: loose.data.portal?.users[0]?.organization_id,
  };
}

/** Makes sure the user exists in the pool with a known, permanent password; answers their `sub`. */
async function ensureUser(
  cognito: CognitoIdentityProviderClient,
  UserPoolId: string,
  Username: string,
  Password: string,
): Promise<string> {
  try {
    await cognito.send(new AdminCreateUserCommand({ UserPoolId, Username, MessageAction: "SUPPRESS" }));
  } catch (error) {
    if (!(error instanceof UsernameExistsException)) throw error;
  }
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId, Username, Password, Permanent: true }));
  const { UserAttributes = [] } = await cognito.send(new AdminGetUserCommand({ UserPoolId, Username }));
  const sub = UserAttributes.find((attribute) => attribute.Name === "sub")?.Value;
  if (!sub) throw new Error(`The pool gave ${Username} no sub`);
  return sub;
}

export interface PortalSeed {
  userPoolId: string;
  clientId: string;
  apiUrl: string;
  environment: Environment;
  devAppId: string;
  /** The name the dev organisation is made with, on the first run. */
  organizationName: string;
  organizations: OrganizationStore;
  apps: Pick<AppStore, "getApp">;
  clock: Clock;
}

/** The dev organisation (the one kept in the file while it exists), its owner, and the dev app in it. */
async function seedPortal(
  cognito: CognitoIdentityProviderClient,
  seed: PortalSeed,
  before: ReturnType<typeof known>,
): Promise<DevLogins["portal"]["users"]> {
  const existing = before.organizationId ? await seed.organizations.getOrganization(before.organizationId) : undefined;
  const organizationId =
    existing?.organization_id ??
    (await createOrganization(seed, { name: seed.organizationName, environment: seed.environment })).organization_id;
  const password = before.passwords.get(SEEDED_OWNER) ?? staffPassword();
  const sub = await ensureUser(cognito, seed.userPoolId, SEEDED_OWNER, password);
  const role: PortalRole = "owner";
  const membership = await seed.organizations.getMember(sub);
  if (!membership) await addMembership(seed, { organizationId, sub, username: SEEDED_OWNER, role });
  // An app another organisation took meanwhile stays there.
  await attachApp(seed, { organizationId, appId: seed.devAppId }).catch(() => undefined);
  return [
    {
      username: SEEDED_OWNER,
      password,
      organization_id: membership?.member_org_id ?? organizationId,
      role: membership?.role ?? role,
    },
  ];
}

/**
 * Makes sure each seeded user exists with a known password (the one kept in dev-logins.json,
 * or a new one), the staff in their groups and the owner in the dev organisation, then writes the file.
 */
export async function ensureDevLogins(
  cognito: CognitoIdentityProviderClient,
  options: {
    dataDir: string;
    identityEndpoint: string;
    region: string;
    staff: { userPoolId: string; clientId: string; apiUrl: string };
    portal: PortalSeed;
  },
): Promise<DevLogins> {
  const file = devLoginsPath(options.dataDir);
  const before = known(file);
  const UserPoolId = options.staff.userPoolId;
  const staffUsers = [];
  for (const { username, groups } of SEEDED_STAFF) {
    const password = before.passwords.get(username) ?? staffPassword();
    await ensureUser(cognito, UserPoolId, username, password);
    for (const GroupName of groups) {
      await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: username, GroupName }));
    }
    staffUsers.push({ username, password, groups });
  }
  const logins: DevLogins = {
    identity_endpoint: options.identityEndpoint,
    region: options.region,
    staff: {
      user_pool_id: UserPoolId,
      client_id: options.staff.clientId,
      api_url: options.staff.apiUrl,
      console_url: options.staff.apiUrl,
      users: staffUsers,
    },
    portal: {
      user_pool_id: options.portal.userPoolId,
      client_id: options.portal.clientId,
      api_url: options.portal.apiUrl,
      page_url: options.portal.apiUrl,
      users: await seedPortal(cognito, options.portal, before),
    },
  };
  writeDataFile(file, `${JSON.stringify(logins, null, 2)}\n`, { secret: true });
  return logins;
}
