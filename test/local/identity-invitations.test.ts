/**
 * Invitations from the local identity endpoint: AdminCreateUser without `MessageAction:
 * "SUPPRESS"` makes a temporary password and mails it, as Cognito does; here the mail is a JSON
 * file in the dev mailbox, and the password is in nothing else, the API's answer above all.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newLocalCredentials } from "../../local/engines.ts";
import { type PoolConfig, startIdentity } from "../../local/identity.ts";
import { authorizationHeader, toAmzDate } from "../../local/sigv4.ts";

/** The access key the local engines take, new for this file as `npm start` makes one per data directory. */
const CREDENTIALS = newLocalCredentials();

const POOL: PoolConfig = { id: "us-east-1_TestInvites", clientIds: ["invitesconsole"], groups: [], mfa: "off" };

const dataDir = mkdtempSync(path.join(os.tmpdir(), "identity-invitations-"));
const mailbox = path.join(dataDir, "mailbox");
let identity: { url: string; stop(): Promise<void> };
let cognito: CognitoIdentityProviderClient;

beforeAll(async () => {
  identity = await startIdentity({ credentials: CREDENTIALS, port: 0, pools: [POOL], mailbox });
  cognito = new CognitoIdentityProviderClient({
    region: "us-east-1",
    endpoint: identity.url,
    credentials: CREDENTIALS,
  });
});
afterAll(async () => {
  cognito.destroy();
  await identity.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A signed AdminCreateUser over raw HTTP: the answer exactly as it went over the wire. */
async function createUserOnTheWire(input: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ UserPoolId: POOL.id, ...input });
  const timestamp = toAmzDate(new Date());
  const headers: Record<string, string> = {
    host: new URL(identity.url).host,
    "content-type": "application/x-amz-json-1.1",
    "x-amz-target": "AWSCognitoIdentityProviderService.AdminCreateUser",
    "x-amz-date": timestamp,
  };
  const scope = { date: timestamp.slice(0, 8), region: "us-east-1", service: "cognito-idp", timestamp };
  headers.authorization = authorizationHeader(CREDENTIALS, { method: "POST", url: "/", headers }, body, scope);
  const response = await fetch(identity.url, { method: "POST", headers, body });
  return { status: response.status, text: await response.text() };
}

interface Mail {
  file: string;
  to: string;
  subject: string;
  body: string;
}

function mails(): Mail[] {
  return readdirSync(mailbox)
    .sort()
    .map((name) => ({ file: name, ...JSON.parse(readFileSync(path.join(mailbox, name), "utf8")) }));
}

function temporaryPasswordIn(mail: Mail | undefined, username: string): string {
  const match = /^Your username is (.+) and temporary password is (.+)\.$/.exec(mail?.body ?? "");
  expect(match?.[1]).toBe(username);
  return match?.[2] ?? "";
}

function signIn(username: string, password: string) {
  return cognito.send(
    new InitiateAuthCommand({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: "invitesconsole",
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  );
}

async function exists(username: string): Promise<boolean> {
  return cognito.send(new AdminGetUserCommand({ UserPoolId: POOL.id, Username: username })).then(
    () => true,
    (error: Error) => {
      if (error.name === "UserNotFoundException") return false;
      throw error;
    },
  );
}

describe("invitations", () => {
  it("mails the temporary password it made to the user's email, and answers nobody else with it", async () => {
    const before = mails().length;
    const answer = await createUserOnTheWire({
      Username: "invited-member",
      UserAttributes: [{ Name: "email", Value: "member@example.test" }],
    });
    expect(answer.status).toBe(200);

    const sent = mails().slice(before);
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail?.file).toMatch(/^\d{8}T\d{6}\.\d{3}Z-us-east-1_TestInvites-invited-member\.json$/);
    expect(mail).toMatchObject({ to: "member@example.test", subject: "Your temporary password" });
    const temporary = temporaryPasswordIn(mail, "invited-member");
    expect(temporary.length).toBeGreaterThanOrEqual(12);
    expect(answer.text).not.toContain(temporary);
    expect(JSON.parse(answer.text).User).toMatchObject({
      Username: "invited-member",
      UserStatus: "FORCE_CHANGE_PASSWORD",
    });
    // Readable by its owner only, and written whole: nothing half-written is left beside it.
    expect(statSync(path.join(mailbox, mail?.file ?? "")).mode & 0o777).toBe(0o600);
    expect(readdirSync(mailbox).filter((name) => !name.endsWith(".json"))).toEqual([]);

    expect((await signIn("invited-member", temporary)).ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
  });

  it("mails a temporary password given to it, too", async () => {
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: POOL.id,
        Username: "given-password",
        TemporaryPassword: "Given-temporary-1",
        DesiredDeliveryMediums: ["EMAIL"],
        UserAttributes: [{ Name: "email", Value: "given@example.test" }],
      }),
    );
    expect(temporaryPasswordIn(mails().at(-1), "given-password")).toBe("Given-temporary-1");
  });

  it("sends nothing with SUPPRESS", async () => {
    const before = readdirSync(mailbox);
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: POOL.id,
        Username: "suppressed",
        MessageAction: "SUPPRESS",
        UserAttributes: [{ Name: "email", Value: "suppressed@example.test" }],
      }),
    );
    expect(readdirSync(mailbox)).toEqual(before);
  });

  it("re-invites with RESEND: a new temporary password, mailed again, and the old one no longer signs in", async () => {
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: POOL.id,
        Username: "resent",
        UserAttributes: [{ Name: "email", Value: "resent@example.test" }],
      }),
    );
    const first = temporaryPasswordIn(mails().at(-1), "resent");
    const { User } = await cognito.send(
      new AdminCreateUserCommand({ UserPoolId: POOL.id, Username: "resent", MessageAction: "RESEND" }),
    );
    expect(User).toMatchObject({ Username: "resent", UserStatus: "FORCE_CHANGE_PASSWORD" });
    const second = temporaryPasswordIn(mails().at(-1), "resent");
    expect(mails().at(-1)?.to).toBe("resent@example.test");
    expect(second).not.toBe(first);
    await expect(signIn("resent", first)).rejects.toMatchObject({ name: "NotAuthorizedException" });
    expect((await signIn("resent", second)).ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
  });

  it("refuses RESEND for a user who does not exist or has set a password, as Cognito does", async () => {
    await expect(
      cognito.send(
        new AdminCreateUserCommand({ UserPoolId: POOL.id, Username: "never-made", MessageAction: "RESEND" }),
      ),
    ).rejects.toMatchObject({ name: "UserNotFoundException" });
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: POOL.id,
        Username: "settled",
        MessageAction: "SUPPRESS",
        UserAttributes: [{ Name: "email", Value: "settled@example.test" }],
      }),
    );
    await cognito.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: POOL.id,
        Username: "settled",
        Password: "Correct-horse-7-battery",
        Permanent: true,
      }),
    );
    await expect(
      cognito.send(new AdminCreateUserCommand({ UserPoolId: POOL.id, Username: "settled", MessageAction: "RESEND" })),
    ).rejects.toMatchObject({
      name: "UnsupportedUserStateException",
      message: "Resend not possible. settled status is not FORCE_CHANGE_PASSWORD",
    });
  });

  it("refuses an invitation that can reach nobody, and makes no user for it", async () => {
    const before = readdirSync(mailbox);
    await expect(
      cognito.send(new AdminCreateUserCommand({ UserPoolId: POOL.id, Username: "no-address" })),
    ).rejects.toMatchObject({ name: "InvalidParameterException" });
    // The pools hold no phone numbers: an invitation by SMS only reaches nobody either.
    await expect(
      cognito.send(
        new AdminCreateUserCommand({
          UserPoolId: POOL.id,
          Username: "sms-only",
          DesiredDeliveryMediums: ["SMS"],
          UserAttributes: [{ Name: "email", Value: "sms@example.test" }],
        }),
      ),
    ).rejects.toMatchObject({ name: "InvalidParameterException" });
    expect(await exists("no-address")).toBe(false);
    expect(await exists("sms-only")).toBe(false);
    expect(readdirSync(mailbox)).toEqual(before);
  });

  it("keeps a username's slashes out of the mailbox's path", async () => {
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: POOL.id,
        Username: "team/../../outside",
        UserAttributes: [{ Name: "email", Value: "team@example.test" }],
      }),
    );
    expect(mails().at(-1)?.file).toMatch(/-us-east-1_TestInvites-team%2F\.\.%2F\.\.%2Foutside\.json$/);
    expect(readdirSync(dataDir)).toEqual(["mailbox"]);
  });
});
