/**
 * The local runtime's staff logins: a reviewer and an admin in the local staff pool, created
 * through the pool's own admin API on first start and kept in dev-logins.json, so the console
 * can be signed in to at once.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  UsernameExistsException,
} from "@aws-sdk/client-cognito-identity-provider";
import { z } from "zod";
import { type StaffGroup, staffPassword } from "#shared/domain/staff";

const SEEDED_STAFF: { username: string; groups: StaffGroup[] }[] = [
  { username: "dev-reviewer", groups: ["reviewers"] },
  { username: "dev-admin", groups: ["admins"] },
];

const userSchema = z.object({ username: z.string(), password: z.string(), groups: z.array(z.string()) });

const devLoginsFile = z.object({
  identity_endpoint: z.string(),
  region: z.string(),
  staff: z.object({
    user_pool_id: z.string(),
    client_id: z.string(),
    api_url: z.string(),
    console_url: z.string(),
    users: z.array(userSchema),
  }),
});
export type DevLogins = z.infer<typeof devLoginsFile>;

export function devLoginsPath(dataDir: string): string {
  return path.resolve(dataDir, "dev-logins.json");
}

function knownPasswords(file: string): Map<string, string> {
  if (!existsSync(file)) return new Map();
  const parsed = devLoginsFile.safeParse(JSON.parse(readFileSync(file, "utf8")));
  return new Map(parsed.success ? parsed.data.staff.users.map((user) => [user.username, user.password]) : []);
}

/**
 * Makes sure each seeded staff user exists with its groups and a known password (the one kept
 * in dev-logins.json, or a new one), then writes the file.
 */
export async function ensureDevLogins(
  cognito: CognitoIdentityProviderClient,
  options: {
    dataDir: string;
    identityEndpoint: string;
    region: string;
    staff: { userPoolId: string; clientId: string; apiUrl: string };
  },
): Promise<DevLogins> {
  const file = devLoginsPath(options.dataDir);
  const known = knownPasswords(file);
  const UserPoolId = options.staff.userPoolId;
  const users = [];
  for (const { username, groups } of SEEDED_STAFF) {
    const password = known.get(username) ?? staffPassword();
    try {
      await cognito.send(new AdminCreateUserCommand({ UserPoolId, Username: username, MessageAction: "SUPPRESS" }));
    } catch (error) {
      if (!(error instanceof UsernameExistsException)) throw error;
    }
    await cognito.send(
      new AdminSetUserPasswordCommand({ UserPoolId, Username: username, Password: password, Permanent: true }),
    );
    for (const GroupName of groups) {
      await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: username, GroupName }));
    }
    users.push({ username, password, groups });
  }
  const logins: DevLogins = {
    identity_endpoint: options.identityEndpoint,
    region: options.region,
    staff: {
      user_pool_id: UserPoolId,
      client_id: options.staff.clientId,
      api_url: options.staff.apiUrl,
      console_url: options.staff.apiUrl,
      users,
    },
  };
  writeFileSync(file, `${JSON.stringify(logins, null, 2)}\n`, { mode: 0o600 });
  return logins;
}
