/**
 * `ops staff` against the local identity endpoint, which speaks Cognito's API, aimed at it
 * through the runtime file `npm start` writes (or, as for a deployed stack, through --env and
 * the SDK's endpoint setting): add, list, disable, and what the pool then does with a sign-in.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CognitoIdentityProviderClient, InitiateAuthCommand } from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { AUDIT_TABLE } from "#shared/declarations/tables";
import { STAFF_GROUPS } from "#shared/domain/staff";
import { LOCAL_REGION, newLocalCredentials } from "../../local/engines.ts";
import { startIdentity } from "../../local/identity.ts";
import { EXIT } from "../../ops/failures.ts";
import { ownTables } from "../support/own-tables.ts";
import { type OpsRun, opsInProcess } from "./support.ts";

const POOL_ID = "us-east-1_OpsStaff01";
const CLIENT_ID = "opsStaffConsole01";

const tables = ownTables();
let identity: Awaited<ReturnType<typeof startIdentity>>;
let dataDir: string;
const folders: string[] = [];
/** The access key this file's identity endpoint takes, written to its runtime files as `npm start` writes its own. */
const CREDENTIALS = newLocalCredentials();

/** A runtime file as `npm start` writes it; `identity` as the current one adds, absent as an older one. */
function runtimeFile(identityEntry?: { endpoint: string; staff_user_pool_id: string }): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "verification-api-ops-staff-"));
  folders.push(folder);
  writeFileSync(
    path.join(folder, "runtime.json"),
    JSON.stringify({
      environment: "sandbox",
      base_url: "http://127.0.0.1:3000",
      region: LOCAL_REGION,
      credentials: CREDENTIALS,
      dynamodb_endpoint: inject("engines").dynamoEndpoint,
      // Each change to the pool is recorded in the audit trail.
      tables: { APPS_TABLE: "ops-staff-unused", AUDIT_TABLE: tables.name(AUDIT_TABLE) },
      ...(identityEntry ? { identity: identityEntry } : {}),
    }),
  );
  return folder;
}

beforeAll(async () => {
  // MFA required, as the deployed staff pool: a new user must still set a password first.
  identity = await startIdentity({
    port: 0,
    credentials: CREDENTIALS,
    pools: [{ id: POOL_ID, clientIds: [CLIENT_ID], groups: [...STAFF_GROUPS], mfa: "required" }],
  });
  dataDir = runtimeFile({ endpoint: identity.url, staff_user_pool_id: POOL_ID });
});
afterAll(async () => {
  await identity.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const ops = (args: string[], folder = dataDir) => opsInProcess(args, folder);

function json<T = Record<string, unknown>>(run: OpsRun): T {
  expect(run, run.stderr).toMatchObject({ exit: EXIT.ok, stderr: "" });
  return JSON.parse(run.stdout) as T;
}

interface Member {
  username: string;
  sub: string;
  enabled: boolean;
  status: string;
  groups: string[];
  created_at: string;
}

/** The console's first step: USER_PASSWORD_AUTH with the pool's client. */
async function signIn(username: string, password: string) {
  const client = new CognitoIdentityProviderClient({
    endpoint: identity.url,
    region: "us-east-1",
    credentials: CREDENTIALS,
  });
  try {
    return await client.send(
      new InitiateAuthCommand({
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: CLIENT_ID,
        AuthParameters: { USERNAME: username, PASSWORD: password },
      }),
    );
  } finally {
    client.destroy();
  }
}

/** The pool's password policy: 12 characters or more, upper, lower, digit and symbol. */
function expectStrongPassword(password: string) {
  expect(password.length).toBeGreaterThanOrEqual(12);
  for (const kind of [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/]) expect(password).toMatch(kind);
}

describe("staff add", () => {
  it("prints the temporary password once, and it signs in only to set a new one", async () => {
    const run = await ops(["staff", "add", "alice", "--group", "reviewers", "--email", "alice@example.com"]);
    expect(run, run.stderr).toMatchObject({ exit: EXIT.ok, stderr: "" });
    expect(run.stdout).toContain("Added alice to reviewers");
    expect(run.stdout).toContain("The first sign-in sets a new password; in a deployed stack it then sets up TOTP");
    const password = /temporary password\s+(\S+)/.exec(run.stdout)?.[1] ?? "";
    expectStrongPassword(password);
    expect(run.stdout.split(password)).toHaveLength(2);

    const answer = await signIn("alice", password);
    expect(answer.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
    expect(answer.AuthenticationResult).toBeUndefined();
  });

  it("puts a user in every group given, once each, and answers JSON", async () => {
    const added = json<Member & { temporary_password: string }>(
      await ops(["staff", "add", "bob", "--group", "admins", "--group", "reviewers", "--group", "admins", "--json"]),
    );
    expect(added).toMatchObject({ username: "bob", enabled: true, status: "FORCE_CHANGE_PASSWORD" });
    expect([...added.groups].sort()).toEqual(["admins", "reviewers"]);
    expect(added.sub).toMatch(/\S/);
    expectStrongPassword(added.temporary_password);
  });

  it("refuses a group that is not a staff group, and a user with no group, as usage errors", async () => {
    const unknown = await ops(["staff", "add", "dave", "--group", "owners"]);
    expect(unknown).toMatchObject({ exit: EXIT.usage, stdout: "" });
    expect(unknown.stderr).toContain("expected one of reviewers, admins");
    const none = await ops(["staff", "add", "dave"]);
    expect(none).toMatchObject({ exit: EXIT.usage, stdout: "" });
    expect(none.stderr).toContain("--group");
    const listed = json<{ staff: Member[] }>(await ops(["staff", "list", "--json"]));
    expect(listed.staff.map((member) => member.username)).not.toContain("dave");
  });
});

describe("staff list", () => {
  it("shows each user's groups, whether enabled, and status, in JSON and as a table", async () => {
    const erin = json<{ temporary_password: string }>(
      await ops(["staff", "add", "erin", "--group", "admins", "--json"]),
    );
    const listed = json<{ staff: Member[] }>(await ops(["staff", "list", "--json"]));
    expect(listed.staff).toContainEqual(
      expect.objectContaining({ username: "erin", groups: ["admins"], enabled: true, status: "FORCE_CHANGE_PASSWORD" }),
    );
    const table = await ops(["staff", "list"]);
    expect(table).toMatchObject({ exit: EXIT.ok, stderr: "" });
    expect(table.stdout.split("\n")[0]).toMatch(/^USERNAME\s+GROUPS\s+ENABLED\s+STATUS\s+CREATED$/);
    expect(table.stdout).toMatch(/^erin\s+admins\s+yes\s+FORCE_CHANGE_PASSWORD\s+\S+$/m);
    expect(table.stdout).not.toContain(erin.temporary_password);
  });
});

describe("staff disable", () => {
  it("disables a user: the pool refuses their sign-in, and list shows them disabled", async () => {
    const added = json<{ temporary_password: string }>(
      await ops(["staff", "add", "carol", "--group", "reviewers", "--json"]),
    );
    const disabled = await ops(["staff", "disable", "carol"]);
    expect(disabled).toMatchObject({ exit: EXIT.ok, stderr: "" });
    expect(disabled.stdout).toMatch(/^carol is disabled and signed out everywhere/);
    expect(disabled.stdout).toContain("up to 60 s");

    await expect(signIn("carol", added.temporary_password)).rejects.toMatchObject({
      name: "NotAuthorizedException",
    });
    const listed = json<{ staff: Member[] }>(await ops(["staff", "list", "--json"]));
    expect(listed.staff).toContainEqual(expect.objectContaining({ username: "carol", enabled: false }));
    expect((await ops(["staff", "list"])).stdout).toMatch(/^carol\s+reviewers\s+no\s/m);
    expect(json(await ops(["staff", "disable", "carol", "--json"]))).toEqual({ username: "carol", enabled: false });
  });
});

describe("staff enable and remove-group", () => {
  it("lets a disabled user sign in again, and takes a user out of one group only", async () => {
    const added = json<{ temporary_password: string }>(
      await ops(["staff", "add", "dave", "--group", "reviewers", "--group", "admins", "--json"]),
    );
    json(await ops(["staff", "disable", "dave", "--json"]));
    expect(json(await ops(["staff", "enable", "dave", "--json"]))).toEqual({ username: "dave", enabled: true });
    // Enabled again: the temporary password signs in, to set a new one.
    await expect(signIn("dave", added.temporary_password)).resolves.toBeDefined();

    expect(json(await ops(["staff", "remove-group", "dave", "--group", "admins", "--json"]))).toEqual({
      username: "dave",
      removed_from: "admins",
    });
    const listed = json<{ staff: Member[] }>(await ops(["staff", "list", "--json"]));
    expect(listed.staff).toContainEqual(
      expect.objectContaining({ username: "dave", groups: ["reviewers"], enabled: true }),
    );
    const badGroup = await ops(["staff", "remove-group", "dave", "--group", "owners"]);
    expect(badGroup.exit).toBe(EXIT.usage);
    const nobody = await ops(["staff", "enable", "nobody-at-all"]);
    expect(nobody.exit).toBe(EXIT.notFound);
  });
});

describe("the target", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it("says so when the runtime file predates the identity endpoint", async () => {
    const run = await ops(["staff", "list"], runtimeFile());
    expect(run).toMatchObject({ exit: EXIT.failed, stdout: "" });
    expect(run.stderr).toMatch(/names no identity endpoint .*restart npm start/);
  });

  it("takes the pool from --staff-user-pool-id with --env, and refuses that flag without --env", async () => {
    json(await ops(["staff", "add", "frank", "--group", "reviewers", "--json"]));
    // The standard per-service endpoint setting and credentials, here the local identity endpoint and its key.
    process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER = identity.url;
    process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
    const deployed = json<{ staff: Member[] }>(
      await ops([
        "--env",
        "sandbox",
        "--apps-table",
        "ops-staff-unused",
        "--audit-table",
        "ops-staff-unused",
        "--staff-user-pool-id",
        POOL_ID,
        "staff",
        "list",
        "--json",
      ]),
    );
    expect(deployed.staff.map((member) => member.username)).toContain("frank");

    const local = await ops(["--staff-user-pool-id", POOL_ID, "staff", "list"]);
    expect(local).toMatchObject({ exit: EXIT.usage, stdout: "" });
    expect(local.stderr).toContain("--staff-user-pool-id and --portal-user-pool-id need --env");
  });
});
