/**
 * The local identity endpoint through the real Cognito SDK client, and the production token
 * verifier and staff directory against it: what `npm start`, the ops command and the review
 * console sign in with, so it must answer as Cognito does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  GetUserCommand,
  InitiateAuthCommand,
  ListUsersCommand,
  RespondToAuthChallengeCommand,
  VerifySoftwareTokenCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { decodeJwt, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoStaffDirectory } from "#shared/adapters/cognito-staff-directory";
import { cognitoTokenVerifier } from "#shared/adapters/cognito-token-verifier";
import { freePort, newLocalCredentials } from "../../local/engines.ts";
import { toBase32, totpCode } from "../../local/identity/totp.ts";
import { type PoolConfig, startIdentity } from "../../local/identity.ts";

/** The access key the local engines take, new for this file as `npm start` makes one per data directory. */
const CREDENTIALS = newLocalCredentials();

const STAFF: PoolConfig = {
  id: "us-east-1_TestStaff",
  clientIds: ["staffconsole", "staffscripts"],
  groups: ["reviewers", "admins"],
  mfa: "optional",
};
const STRICT: PoolConfig = { id: "us-east-1_TestStrict", clientIds: ["strictconsole"], groups: [], mfa: "required" };
const OTHER: PoolConfig = { id: "us-east-1_TestOther", clientIds: ["otherconsole"], groups: ["reviewers"], mfa: "off" };
const DIRECTORY: PoolConfig = {
  id: "us-east-1_TestDirectory",
  clientIds: ["directoryconsole"],
  groups: ["reviewers", "admins"],
  mfa: "optional",
};

/** Where the review console and the portal are served from: the only pages that may call from a browser. */
const CONSOLE_ORIGIN = "http://127.0.0.1:3004";
const PORTAL_ORIGIN = "http://127.0.0.1:3006";

const PASSWORD = "Correct-horse-7-battery";
const TEMPORARY = "Temporary-pass-1";

let identity: { url: string; stop(): Promise<void> };
let cognito: CognitoIdentityProviderClient;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "identity-"));

function clientOf(url: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ region: "us-east-1", endpoint: url, credentials: CREDENTIALS });
}

beforeAll(async () => {
  identity = await startIdentity({
    credentials: CREDENTIALS,
    port: 0,
    pools: [STAFF, STRICT, OTHER, DIRECTORY],
    allowedOrigins: [CONSOLE_ORIGIN, PORTAL_ORIGIN],
  });
  cognito = clientOf(identity.url);
});
afterAll(async () => {
  cognito.destroy();
  await identity.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A confirmed user with a permanent password, as the local seeding makes them. */
async function confirmedUser(pool: PoolConfig, username: string, groups: string[] = [], client = cognito) {
  await client.send(new AdminCreateUserCommand({ UserPoolId: pool.id, Username: username, MessageAction: "SUPPRESS" }));
  await client.send(
    new AdminSetUserPasswordCommand({ UserPoolId: pool.id, Username: username, Password: PASSWORD, Permanent: true }),
  );
  for (const GroupName of groups) {
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId: pool.id, Username: username, GroupName }));
  }
}

function passwordSignIn(clientId: string, username: string, password = PASSWORD, client = cognito) {
  return client.send(
    new InitiateAuthCommand({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: clientId,
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  );
}

/** The tokens of a sign-in that owes no challenge. */
async function tokens(clientId: string, username: string, client = cognito) {
  const { ChallengeName, AuthenticationResult } = await passwordSignIn(clientId, username, PASSWORD, client);
  expect(ChallengeName).toBeUndefined();
  const { AccessToken, IdToken, RefreshToken } = AuthenticationResult ?? {};
  if (!AccessToken || !IdToken || !RefreshToken) throw new Error("The sign-in answered no tokens");
  return { AccessToken, IdToken, RefreshToken };
}

/** A six-digit code the authenticator shows for none of the steps the endpoint accepts now. */
function wrongCode(secret: string): string {
  const accepted = [-30_000, 0, 30_000].map((offset) => totpCode(secret, Date.now() + offset));
  for (let code = 0; ; code += 1) {
    const candidate = String(code).padStart(6, "0");
    if (!accepted.includes(candidate)) return candidate;
  }
}

const staffVerifier = () =>
  cognitoTokenVerifier({ pool: "staff", userPoolId: STAFF.id, clientId: "staffconsole", endpoint: identity.url });

describe("the local identity endpoint", () => {
  it("creates a user who sets a new password at the first sign-in, then holds tokens shaped as Cognito's", async () => {
    const { User } = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: STAFF.id,
        Username: "first-login",
        TemporaryPassword: TEMPORARY,
        MessageAction: "SUPPRESS",
        UserAttributes: [{ Name: "email", Value: "first@example.test" }],
      }),
    );
    expect(User).toMatchObject({ Username: "first-login", UserStatus: "FORCE_CHANGE_PASSWORD", Enabled: true });
    expect(User?.UserCreateDate).toBeInstanceOf(Date);
    expect(Math.abs(Number(User?.UserCreateDate) - Date.now())).toBeLessThan(60_000);

    const started = await passwordSignIn("staffconsole", "first-login", TEMPORARY);
    expect(started.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
    expect(started.AuthenticationResult).toBeUndefined();
    expect(JSON.parse(started.ChallengeParameters?.userAttributes ?? "{}")).toEqual({ email: "first@example.test" });
    const respond = (password: string) =>
      cognito.send(
        new RespondToAuthChallengeCommand({
          ClientId: "staffconsole",
          ChallengeName: "NEW_PASSWORD_REQUIRED",
          Session: started.Session,
          ChallengeResponses: { USERNAME: "first-login", NEW_PASSWORD: password },
        }),
      );
    await expect(respond("too-weak")).rejects.toMatchObject({ name: "InvalidPasswordException" });
    const { AuthenticationResult } = await respond(PASSWORD);
    expect(AuthenticationResult).toMatchObject({ TokenType: "Bearer", ExpiresIn: 3600 });

    const access = decodeJwt(String(AuthenticationResult?.AccessToken));
    expect(access).toMatchObject({
      iss: `https://cognito-idp.us-east-1.amazonaws.com/${STAFF.id}`,
      client_id: "staffconsole",
      token_use: "access",
      scope: "aws.cognito.signin.user.admin",
      username: "first-login",
    });
    expect(Number(access.exp) - Number(access.iat)).toBe(3600);
    expect(access).not.toHaveProperty("cognito:groups");
    expect(decodeJwt(String(AuthenticationResult?.IdToken))).toMatchObject({
      aud: "staffconsole",
      token_use: "id",
      "cognito:username": "first-login",
      email: "first@example.test",
      sub: access.sub,
      origin_jti: access.origin_jti,
    });
    const { UserStatus } = await cognito.send(
      new AdminGetUserCommand({ UserPoolId: STAFF.id, Username: "first-login" }),
    );
    expect(UserStatus).toBe("CONFIRMED");
    await expect(passwordSignIn("staffconsole", "first-login", TEMPORARY)).rejects.toMatchObject({
      name: "NotAuthorizedException",
      message: "Incorrect username or password.",
    });
  });

  it("keeps a temporary password it made itself to nobody: the user signs in once an admin sets one", async () => {
    const created = await cognito.send(
      new AdminCreateUserCommand({ UserPoolId: STAFF.id, Username: "awaits-an-admin", MessageAction: "SUPPRESS" }),
    );
    // Exactly Cognito's UserType: the password made here is not among it.
    expect(created.User).toEqual({
      Username: "awaits-an-admin",
      Attributes: [{ Name: "sub", Value: expect.any(String) }],
      UserCreateDate: expect.any(Date),
      UserLastModifiedDate: expect.any(Date),
      Enabled: true,
      UserStatus: "FORCE_CHANGE_PASSWORD",
    });
    await cognito.send(
      new AdminSetUserPasswordCommand({ UserPoolId: STAFF.id, Username: "awaits-an-admin", Password: TEMPORARY }),
    );
    expect((await passwordSignIn("staffconsole", "awaits-an-admin", TEMPORARY)).ChallengeName).toBe(
      "NEW_PASSWORD_REQUIRED",
    );
  });

  it.each([
    ["Sh0rt-pass", "Password not long enough"],
    ["no-uppercase-123", "Password must have uppercase characters"],
    ["NO-LOWERCASE-123", "Password must have lowercase characters"],
    ["No-digits-at-all", "Password must have numeric characters"],
    ["NoSymbolsHere123", "Password must have symbol characters"],
  ])("refuses the password %s: %s", async (Password, rule) => {
    await expect(
      cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: STAFF.id, Username: "first-login", Password })),
    ).rejects.toMatchObject({
      name: "InvalidPasswordException",
      message: `Password did not conform with policy: ${rule}`,
    });
  });

  it("answers errors with Cognito's types and messages, and hides from sign-in who exists", async () => {
    await confirmedUser(STAFF, "error-cases");
    const incorrect = { name: "NotAuthorizedException", message: "Incorrect username or password." };
    await expect(passwordSignIn("staffconsole", "error-cases", "Wrong-password-1")).rejects.toMatchObject(incorrect);
    await expect(passwordSignIn("staffconsole", "nobody-at-all")).rejects.toMatchObject(incorrect);
    await expect(
      cognito.send(new AdminGetUserCommand({ UserPoolId: STAFF.id, Username: "nobody-at-all" })),
    ).rejects.toMatchObject({ name: "UserNotFoundException", message: "User does not exist." });
    // Usernames in any case name the same user, as in the deployed pool; tokens keep the created spelling.
    await expect(
      cognito.send(new AdminCreateUserCommand({ UserPoolId: STAFF.id, Username: "Error-Cases" })),
    ).rejects.toMatchObject({ name: "UsernameExistsException" });
    expect(decodeJwt((await tokens("staffconsole", "ERROR-CASES")).AccessToken).username).toBe("error-cases");
    await expect(passwordSignIn("noclient", "error-cases")).rejects.toMatchObject({
      name: "ResourceNotFoundException",
    });
    await expect(
      cognito.send(new AdminGetUserCommand({ UserPoolId: "us-east-1_Nowhere", Username: "error-cases" })),
    ).rejects.toMatchObject({ name: "ResourceNotFoundException" });
    await expect(
      cognito.send(
        new AdminAddUserToGroupCommand({ UserPoolId: STAFF.id, Username: "error-cases", GroupName: "owners" }),
      ),
    ).rejects.toMatchObject({ name: "ResourceNotFoundException" });
    await expect(
      cognito.send(new AdminCreateUserCommand({ UserPoolId: STAFF.id, Username: "has a space" })),
    ).rejects.toMatchObject({ name: "InvalidParameterException" });
    await expect(
      cognito.send(new InitiateAuthCommand({ AuthFlow: "USER_PASSWORD_AUTH", ClientId: "staffconsole" })),
    ).rejects.toMatchObject({ name: "InvalidParameterException", message: "Missing required parameter USERNAME" });
  });

  it("speaks the JSON 1.1 protocol with CORS, preflight included, for the console and the portal only", async () => {
    const preflight = (origin: string) =>
      fetch(identity.url, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, x-amz-target",
        },
      });
    const signInFrom = (origin: string) =>
      fetch(identity.url, {
        method: "POST",
        headers: {
          origin,
          "content-type": "application/x-amz-json-1.1",
          "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
        },
        body: JSON.stringify({
          AuthFlow: "USER_PASSWORD_AUTH",
          ClientId: "staffconsole",
          AuthParameters: { USERNAME: "nobody-at-all", PASSWORD },
        }),
      });
    for (const origin of [CONSOLE_ORIGIN, PORTAL_ORIGIN]) {
      const allowed = await preflight(origin);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(origin);
      expect(allowed.headers.get("access-control-allow-headers")).toContain("x-amz-target");
      expect(allowed.headers.get("vary")).toBe("Origin");
    }
    const response = await signInFrom(CONSOLE_ORIGIN);
    expect(response.status).toBe(400);
    expect(response.headers.get("x-amzn-errortype")).toBe("NotAuthorizedException");
    expect(response.headers.get("access-control-allow-origin")).toBe(CONSOLE_ORIGIN);
    expect(await response.json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Incorrect username or password.",
    });

    // Any other page gets no CORS headers, so its browser keeps the answer from it.
    for (const origin of ["https://attacker.example", "http://127.0.0.1:9999", "null"]) {
      const refused = await preflight(origin);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      expect(refused.headers.get("access-control-allow-headers")).toBeNull();
      const answered = await signInFrom(origin);
      expect(answered.headers.get("access-control-allow-origin")).toBeNull();
      expect(answered.headers.get("vary")).toBe("Origin");
      await answered.body?.cancel();
    }

    const jwks = await fetch(`${identity.url}/${STAFF.id}/.well-known/jwks.json`);
    const { keys } = (await jwks.json()) as { keys: Record<string, string>[] };
    expect(keys).toEqual([expect.objectContaining({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String) })]);
    expect(keys[0]).not.toHaveProperty("d");
  });

  it("allows pages served from loopback when it is given no origins, and no others", async () => {
    const open = await startIdentity({ credentials: CREDENTIALS, port: 0, pools: [OTHER] });
    try {
      const origins = [
        "http://127.0.0.1:41234",
        "http://localhost:5173",
        "https://attacker.example",
        "http://127.0.0.1.attacker.example",
      ];
      const allowed: (string | null)[] = [];
      for (const origin of origins) {
        const answer = await fetch(open.url, { method: "OPTIONS", headers: { origin } });
        allowed.push(answer.headers.get("access-control-allow-origin"));
      }
      expect(allowed).toEqual(["http://127.0.0.1:41234", "http://localhost:5173", null, null]);
    } finally {
      await open.stop();
    }
  });

  it("lists users a page at a time", async () => {
    const first = await cognito.send(new ListUsersCommand({ UserPoolId: STAFF.id, Limit: 1 }));
    expect(first.Users).toHaveLength(1);
    const second = await cognito.send(
      new ListUsersCommand({ UserPoolId: STAFF.id, Limit: 1, PaginationToken: first.PaginationToken }),
    );
    expect(second.Users?.[0]?.Username).not.toBe(first.Users?.[0]?.Username);
  });

  it("computes TOTP codes as RFC 6238 does", () => {
    // The RFC's SHA-1 vectors, cut to six digits.
    const secret = toBase32(Buffer.from("12345678901234567890"));
    expect(totpCode(secret, 59_000)).toBe("287082");
    expect(totpCode(secret, 1_111_111_109_000)).toBe("081804");
  });

  it("has a user of a pool that requires MFA set TOTP up at sign-in, then asks for a code each time", async () => {
    await confirmedUser(STRICT, "needs-totp");
    const started = await passwordSignIn("strictconsole", "needs-totp");
    expect(started).toMatchObject({ ChallengeName: "MFA_SETUP", Session: expect.any(String) });
    const { SecretCode, Session } = await cognito.send(new AssociateSoftwareTokenCommand({ Session: started.Session }));
    const secret = String(SecretCode);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect(
      cognito.send(new VerifySoftwareTokenCommand({ Session, UserCode: wrongCode(secret) })),
    ).rejects.toMatchObject({ name: "EnableSoftwareTokenMFAException" });
    const verified = await cognito.send(
      new VerifySoftwareTokenCommand({ Session, UserCode: totpCode(secret, Date.now()) }),
    );
    expect(verified).toMatchObject({ Status: "SUCCESS", Session: expect.any(String) });
    const setUp = await cognito.send(
      new RespondToAuthChallengeCommand({
        ClientId: "strictconsole",
        ChallengeName: "MFA_SETUP",
        Session: verified.Session,
        ChallengeResponses: { USERNAME: "needs-totp" },
      }),
    );
    expect(setUp.AuthenticationResult?.AccessToken).toEqual(expect.any(String));

    const again = await passwordSignIn("strictconsole", "needs-totp");
    expect(again.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
    const answer = (code: string) =>
      cognito.send(
        new RespondToAuthChallengeCommand({
          ClientId: "strictconsole",
          ChallengeName: "SOFTWARE_TOKEN_MFA",
          Session: again.Session,
          ChallengeResponses: { USERNAME: "needs-totp", SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    await expect(answer(wrongCode(secret))).rejects.toMatchObject({
      name: "CodeMismatchException",
      message: "Invalid code received for user",
    });
    expect((await answer(totpCode(secret, Date.now()))).AuthenticationResult?.RefreshToken).toEqual(expect.any(String));
  });

  it("asks for a code in a pool where MFA is optional only once the user has set TOTP up", async () => {
    await confirmedUser(STAFF, "opts-in");
    const { AccessToken } = await tokens("staffconsole", "opts-in");
    const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken }));
    const secret = String(SecretCode);
    expect(
      await cognito.send(new VerifySoftwareTokenCommand({ AccessToken, UserCode: totpCode(secret, Date.now()) })),
    ).toMatchObject({ Status: "SUCCESS" });
    expect((await passwordSignIn("staffconsole", "opts-in")).ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
  });

  it("refreshes tokens until a global sign-out revokes the refresh token and the access tokens", async () => {
    await confirmedUser(STAFF, "refresher", ["reviewers"]);
    const signedIn = await tokens("staffconsole", "refresher");
    const refresh = () =>
      cognito.send(
        new InitiateAuthCommand({
          AuthFlow: "REFRESH_TOKEN_AUTH",
          ClientId: "staffconsole",
          AuthParameters: { REFRESH_TOKEN: signedIn.RefreshToken },
        }),
      );
    const { AuthenticationResult } = await refresh();
    expect(AuthenticationResult?.RefreshToken).toBeUndefined();
    const refreshed = String(AuthenticationResult?.AccessToken);
    expect(decodeJwt(refreshed).origin_jti).toBe(decodeJwt(signedIn.AccessToken).origin_jti);
    expect(await staffVerifier().verify(refreshed)).toMatchObject({ username: "refresher" });

    await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: STAFF.id, Username: "refresher" }));
    await expect(refresh()).rejects.toMatchObject({
      name: "NotAuthorizedException",
      message: "Refresh Token has been revoked",
    });
    await expect(cognito.send(new GetUserCommand({ AccessToken: refreshed }))).rejects.toMatchObject({
      name: "NotAuthorizedException",
      message: "Access Token has been revoked",
    });
    // A new sign-in is a new origin, untouched by the sign-out before it.
    const { AccessToken } = await tokens("staffconsole", "refresher");
    expect((await cognito.send(new GetUserCommand({ AccessToken }))).Username).toBe("refresher");
  });

  it("keeps users and its signing key in its data file across restarts", async () => {
    const dataFile = path.join(dataDir, "identity.json");
    const first = await startIdentity({ credentials: CREDENTIALS, port: 0, dataFile, pools: [STAFF] });
    const firstClient = clientOf(first.url);
    await confirmedUser(STAFF, "survivor", ["admins"], firstClient);
    const before = await tokens("staffconsole", "survivor", firstClient);
    firstClient.destroy();
    await first.stop();

    const second = await startIdentity({ credentials: CREDENTIALS, port: 0, dataFile, pools: [STAFF] });
    const secondClient = clientOf(second.url);
    try {
      await tokens("staffconsole", "survivor", secondClient);
      const verifier = cognitoTokenVerifier({
        pool: "staff",
        userPoolId: STAFF.id,
        clientId: "staffconsole",
        endpoint: second.url,
      });
      expect(await verifier.verify(before.AccessToken)).toMatchObject({ username: "survivor", groups: ["admins"] });
    } finally {
      secondClient.destroy();
      await second.stop();
    }
  });
});

describe("the Cognito token verifier", () => {
  it("accepts a live access token of the pool's client, with the user's groups", async () => {
    await confirmedUser(STAFF, "good-reviewer", ["reviewers"]);
    const { AccessToken } = await tokens("staffconsole", "good-reviewer");
    expect(await staffVerifier().verify(AccessToken)).toEqual({
      pool: "staff",
      sub: decodeJwt(AccessToken).sub,
      username: "good-reviewer",
      groups: ["reviewers"],
    });
  });

  it("refuses a token of another pool, of another client of the pool, an id token and no JWT at all", async () => {
    await confirmedUser(OTHER, "elsewhere", ["reviewers"]);
    await confirmedUser(STAFF, "two-clients", ["reviewers"]);
    const verifier = staffVerifier();
    expect(await verifier.verify((await tokens("otherconsole", "elsewhere")).AccessToken)).toBeUndefined();
    expect(await verifier.verify((await tokens("staffscripts", "two-clients")).AccessToken)).toBeUndefined();
    const { IdToken, AccessToken } = await tokens("staffconsole", "two-clients");
    expect(await verifier.verify(IdToken)).toBeUndefined();
    expect(await verifier.verify("not-a-jwt")).toBeUndefined();
    // The same verifier still accepts a good token: the refusals were the tokens', not its own.
    expect(await verifier.verify(AccessToken)).toMatchObject({ username: "two-clients" });
  });

  it("refuses an expired token, and accepts a fresh one of the same endpoint", async () => {
    let offset = -2 * 3600_000;
    const past = await startIdentity({
      credentials: CREDENTIALS,
      port: 0,
      pools: [STAFF],
      now: () => Date.now() + offset,
    });
    const pastClient = clientOf(past.url);
    try {
      await confirmedUser(STAFF, "time-traveller", ["reviewers"], pastClient);
      const old = await tokens("staffconsole", "time-traveller", pastClient);
      offset = 0;
      const fresh = await tokens("staffconsole", "time-traveller", pastClient);
      const verifier = cognitoTokenVerifier({
        pool: "staff",
        userPoolId: STAFF.id,
        clientId: "staffconsole",
        endpoint: past.url,
      });
      expect(await verifier.verify(old.AccessToken)).toBeUndefined();
      expect(await verifier.verify(fresh.AccessToken)).toMatchObject({ username: "time-traveller" });
    } finally {
      pastClient.destroy();
      await past.stop();
    }
  });

  it("refuses a token signed by a key the pool's JWKS does not hold, under its kid or another", async () => {
    await confirmedUser(STAFF, "forged", ["admins"]);
    const { AccessToken } = await tokens("staffconsole", "forged");
    const { keys } = (await (await fetch(`${identity.url}/${STAFF.id}/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    const { privateKey } = await generateKeyPair("RS256");
    const forge = (kid: string) =>
      new SignJWT(decodeJwt(AccessToken)).setProtectedHeader({ alg: "RS256", kid }).sign(privateKey);
    const verifier = staffVerifier();
    expect(await verifier.verify(await forge(String(keys[0]?.kid)))).toBeUndefined();
    expect(await verifier.verify(await forge("another-key"))).toBeUndefined();
    expect(await verifier.verify(AccessToken)).toMatchObject({ username: "forged" });
  });

  it("refuses a disabled user's token, and the disabled user cannot sign in", async () => {
    await confirmedUser(STAFF, "disabled-one", ["reviewers"]);
    const { AccessToken } = await tokens("staffconsole", "disabled-one");
    await cognito.send(new AdminDisableUserCommand({ UserPoolId: STAFF.id, Username: "disabled-one" }));
    expect(await staffVerifier().verify(AccessToken)).toBeUndefined();
    const disabled = { name: "NotAuthorizedException", message: "User is disabled." };
    await expect(cognito.send(new GetUserCommand({ AccessToken }))).rejects.toMatchObject(disabled);
    await expect(passwordSignIn("staffconsole", "disabled-one")).rejects.toMatchObject(disabled);
  });

  it("refuses a token after a global sign-out", async () => {
    await confirmedUser(STAFF, "signed-out", ["reviewers"]);
    const { AccessToken } = await tokens("staffconsole", "signed-out");
    const verifier = staffVerifier();
    expect(await verifier.verify(AccessToken)).toBeDefined();
    await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: STAFF.id, Username: "signed-out" }));
    expect(await verifier.verify(AccessToken)).toBeUndefined();
  });

  it("throws when the pool's keys cannot be fetched", async () => {
    await confirmedUser(STAFF, "unreachable", ["reviewers"]);
    const { AccessToken } = await tokens("staffconsole", "unreachable");
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const verifier = cognitoTokenVerifier({
      pool: "staff",
      userPoolId: STAFF.id,
      clientId: "staffconsole",
      endpoint: nowhere,
    });
    await expect(verifier.verify(AccessToken)).rejects.toThrow();
  });
});

describe("the Cognito staff directory", () => {
  it("adds a member with a temporary password, lists members with their groups, and disables one", async () => {
    const directory = cognitoStaffDirectory(cognito, DIRECTORY.id);
    const { member, temporaryPassword } = await directory.add({
      username: "new-reviewer",
      email: "reviewer@example.test",
      groups: ["reviewers"],
    });
    expect(member).toEqual({
      username: "new-reviewer",
      sub: expect.stringMatching(/^[0-9a-f-]{36}$/),
      enabled: true,
      status: "FORCE_CHANGE_PASSWORD",
      groups: ["reviewers"],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect((await passwordSignIn("directoryconsole", "new-reviewer", temporaryPassword)).ChallengeName).toBe(
      "NEW_PASSWORD_REQUIRED",
    );
    await directory.add({ username: "new-admin", groups: ["admins", "reviewers"] });
    await cognito.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: DIRECTORY.id,
        Username: "new-admin",
        Password: PASSWORD,
        Permanent: true,
      }),
    );
    const signedIn = await tokens("directoryconsole", "new-admin");

    expect(await directory.list()).toEqual([
      expect.objectContaining({ username: "new-admin", status: "CONFIRMED", groups: ["admins", "reviewers"] }),
      { ...member, groups: ["reviewers"] },
    ]);

    await directory.disable("new-admin");
    expect((await directory.list()).find((listed) => listed.username === "new-admin")?.enabled).toBe(false);
    await expect(passwordSignIn("directoryconsole", "new-admin")).rejects.toMatchObject({
      message: "User is disabled.",
    });
    await expect(
      cognito.send(
        new InitiateAuthCommand({
          AuthFlow: "REFRESH_TOKEN_AUTH",
          ClientId: "directoryconsole",
          AuthParameters: { REFRESH_TOKEN: signedIn.RefreshToken },
        }),
      ),
    ).rejects.toMatchObject({ name: "NotAuthorizedException" });
  });
});
