/**
 * Wrong passwords at the local identity endpoint, as Cognito meets them: five are allowed, then
 * a lockout starting at one second and doubling up to 15 minutes, kept across a restart; and a
 * username nobody has is answered as a wrong password is, in the same time.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newLocalCredentials } from "../../local/engines.ts";
import { type PoolConfig, startIdentity } from "../../local/identity.ts";

/** The access key the local engines take, new for this file as `npm start` makes one per data directory. */
const CREDENTIALS = newLocalCredentials();

const POOL: PoolConfig = { id: "us-east-1_TestAttempts", clientIds: ["attemptsconsole"], groups: [], mfa: "off" };
const PASSWORD = "Correct-horse-7-battery";
const WRONG = "Wrong-horse-7-battery";
const INCORRECT = { name: "NotAuthorizedException", message: "Incorrect username or password." };
const EXCEEDED = { name: "NotAuthorizedException", message: "Password attempts exceeded" };

const dataDir = mkdtempSync(path.join(os.tmpdir(), "identity-attempts-"));
/** The endpoint's clock, moved by the tests past each lockout. */
let clock = Date.now();
let identity: { url: string; stop(): Promise<void> };
let cognito: CognitoIdentityProviderClient;

const clientOf = (url: string) =>
  new CognitoIdentityProviderClient({ region: "us-east-1", endpoint: url, credentials: CREDENTIALS });

beforeAll(async () => {
  identity = await startIdentity({ credentials: CREDENTIALS, port: 0, pools: [POOL], now: () => clock });
  cognito = clientOf(identity.url);
});
afterAll(async () => {
  cognito.destroy();
  await identity.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function confirmedUser(username: string, client = cognito) {
  await client.send(new AdminCreateUserCommand({ UserPoolId: POOL.id, Username: username, MessageAction: "SUPPRESS" }));
  await client.send(
    new AdminSetUserPasswordCommand({ UserPoolId: POOL.id, Username: username, Password: PASSWORD, Permanent: true }),
  );
}

function signIn(username: string, password: string, client = cognito) {
  return client.send(
    new InitiateAuthCommand({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: "attemptsconsole",
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  );
}

async function fiveWrongPasswords(username: string, client = cognito) {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await expect(signIn(username, WRONG, client)).rejects.toMatchObject(INCORRECT);
  }
}

const signsIn = async (username: string, client = cognito) =>
  expect((await signIn(username, PASSWORD, client)).AuthenticationResult?.AccessToken).toEqual(expect.any(String));

describe("failed sign-ins", () => {
  it("locks a user out after five wrong passwords: the sixth attempt, even the right password, is refused", async () => {
    await confirmedUser("five-wrong");
    await fiveWrongPasswords("five-wrong");
    await expect(signIn("five-wrong", WRONG)).rejects.toMatchObject(EXCEEDED);
    await expect(signIn("five-wrong", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    // Another user is not affected.
    await confirmedUser("bystander");
    await signsIn("bystander");
  });

  it("locks out for one second, then twice as long after each further wrong password; the right one starts over", async () => {
    await confirmedUser("doubling");
    await fiveWrongPasswords("doubling");
    await expect(signIn("doubling", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    clock += 1000;
    // The sixth wrong password is answered as wrong, and locks out for two seconds.
    await expect(signIn("doubling", WRONG)).rejects.toMatchObject(INCORRECT);
    clock += 1999;
    await expect(signIn("doubling", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    clock += 1;
    await expect(signIn("doubling", WRONG)).rejects.toMatchObject(INCORRECT);
    // Attempts made while locked out do not lengthen the lockout: four seconds from the seventh.
    clock += 3000;
    await expect(signIn("doubling", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    clock += 1000;
    await signsIn("doubling");
    // Started over: four wrong passwords lock nothing.
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await expect(signIn("doubling", WRONG)).rejects.toMatchObject(INCORRECT);
    }
    await signsIn("doubling");
  });

  it("locks out for at most 15 minutes", async () => {
    await confirmedUser("persistent-guesser");
    await fiveWrongPasswords("persistent-guesser");
    // Each wrong password once the lockout before it is over: the 6th locks 2 s ... the 14th 512 s, the 15th 15 min.
    for (let failures = 6; failures <= 15; failures += 1) {
      clock += 1000 * 2 ** (failures - 6);
      await expect(signIn("persistent-guesser", WRONG)).rejects.toMatchObject(INCORRECT);
    }
    clock += 15 * 60_000 - 1000;
    await expect(signIn("persistent-guesser", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    // Not 2^10 seconds: the lockout stops growing at 15 minutes.
    clock += 1000;
    await signsIn("persistent-guesser");
  });

  it("starts over after 15 minutes without an attempt, refused attempts counting as attempts", async () => {
    await confirmedUser("quiet-one");
    await fiveWrongPasswords("quiet-one");
    clock += 1000;
    await expect(signIn("quiet-one", WRONG)).rejects.toMatchObject(INCORRECT);
    // Locked out for 2 s from here; an attempt one second in is refused, and counts as an attempt.
    clock += 1000;
    await expect(signIn("quiet-one", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    // 15 minutes after the last wrong password, but not after the last attempt: still counting.
    clock += 15 * 60_000 - 500;
    await expect(signIn("quiet-one", WRONG)).rejects.toMatchObject(INCORRECT);
    await expect(signIn("quiet-one", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    // 15 minutes without any attempt: the next wrong password is the first again.
    clock += 15 * 60_000;
    await expect(signIn("quiet-one", WRONG)).rejects.toMatchObject(INCORRECT);
    await signsIn("quiet-one");
  });

  it("locks out a username nobody has just as it locks out a user, so the lockout tells nobody who exists", async () => {
    await fiveWrongPasswords("nobody-by-this-name");
    await expect(signIn("nobody-by-this-name", PASSWORD)).rejects.toMatchObject(EXCEEDED);
    clock += 1000;
    await expect(signIn("nobody-by-this-name", PASSWORD)).rejects.toMatchObject(INCORRECT);
  });

  it("counts wrong passwords sent at once one by one", async () => {
    await confirmedUser("all-at-once");
    const answers = await Promise.allSettled(Array.from({ length: 12 }, () => signIn("all-at-once", WRONG)));
    const messages = answers.map((answer) => (answer.status === "rejected" ? (answer.reason as Error).message : "ok"));
    expect(messages.filter((message) => message === INCORRECT.message)).toHaveLength(5);
    expect(messages.filter((message) => message === EXCEEDED.message)).toHaveLength(7);
  });

  it("keeps a lockout with the user across a restart", async () => {
    const dataFile = path.join(dataDir, "identity.json");
    const first = await startIdentity({ credentials: CREDENTIALS, port: 0, dataFile, pools: [POOL], now: () => clock });
    const firstClient = clientOf(first.url);
    await confirmedUser("restarted", firstClient);
    await fiveWrongPasswords("restarted", firstClient);
    firstClient.destroy();
    await first.stop();
    expect(JSON.parse(readFileSync(dataFile, "utf8")).pools[POOL.id].users.restarted.failedSignIns).toEqual({
      count: 5,
      lastAttemptAt: clock,
      lockedUntil: clock + 1000,
    });

    const second = await startIdentity({
      credentials: CREDENTIALS,
      port: 0,
      dataFile,
      pools: [POOL],
      now: () => clock,
    });
    const secondClient = clientOf(second.url);
    try {
      await expect(signIn("restarted", PASSWORD, secondClient)).rejects.toMatchObject(EXCEEDED);
      clock += 1000;
      await signsIn("restarted", secondClient);
    } finally {
      secondClient.destroy();
      await second.stop();
    }
  });
});

describe("a username nobody has", () => {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };

  async function timed(username: string): Promise<number> {
    const started = performance.now();
    await expect(signIn(username, WRONG)).rejects.toMatchObject(INCORRECT);
    return performance.now() - started;
  }

  it("is answered as a wrong password is, in about the same time", async () => {
    // Three users, three wrong passwords each: none of them reaches a lockout.
    const users = ["timed-one", "timed-two", "timed-three"];
    for (const username of users) await confirmedUser(username);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (const [index, username] of users.entries()) {
        known.push(await timed(username));
        unknown.push(await timed(`unknown-${round}-${index}`));
      }
    }
    const [fast, slow] = [median(known), median(unknown)].sort((a, b) => a - b) as [number, number];
    // Generous: the password hash takes tens of milliseconds, and skipping it took a few.
    expect(slow / fast, `known ${median(known)} ms, unknown ${median(unknown)} ms`).toBeLessThan(2);
  });
});
