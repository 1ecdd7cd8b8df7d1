/**
 * What the portal's and the backoffice's member lifecycle asks of the pools, against the local
 * identity endpoint through the SDK: leaving a group, signing out everywhere, being disabled and
 * enabled, being deleted. Access tokens keep their signature until they expire, as Cognito's do;
 * Cognito's own API (GetUser, which the service's verifier asks) and refreshes refuse them.
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  GetUserCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newLocalCredentials } from "../../local/engines.ts";
import { type PoolConfig, startIdentity } from "../../local/identity.ts";

/** The access key the local engines take, new for this file as `npm start` makes one per data directory. */
const CREDENTIALS = newLocalCredentials();

const POOL: PoolConfig = {
  id: "us-east-1_TestMembers",
  clientIds: ["membersconsole"],
  groups: ["reviewers", "admins"],
  mfa: "off",
};
const PASSWORD = "Correct-horse-7-battery";

let identity: { url: string; stop(): Promise<void> };
let cognito: CognitoIdentityProviderClient;

beforeAll(async () => {
  identity = await startIdentity({ credentials: CREDENTIALS, port: 0, pools: [POOL] });
  cognito = new CognitoIdentityProviderClient({
    region: "us-east-1",
    endpoint: identity.url,
    credentials: CREDENTIALS,
  });
});
afterAll(async () => {
  cognito.destroy();
  await identity.stop();
});

const named = (Username: string) => ({ UserPoolId: POOL.id, Username });

async function member(username: string, groups: string[] = []) {
  await cognito.send(new AdminCreateUserCommand({ ...named(username), MessageAction: "SUPPRESS" }));
  await cognito.send(new AdminSetUserPasswordCommand({ ...named(username), Password: PASSWORD, Permanent: true }));
  for (const GroupName of groups) await cognito.send(new AdminAddUserToGroupCommand({ ...named(username), GroupName }));
}

function signIn(username: string) {
  return cognito.send(
    new InitiateAuthCommand({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: "membersconsole",
      AuthParameters: { USERNAME: username, PASSWORD },
    }),
  );
}

async function tokens(username: string) {
  const { AuthenticationResult } = await signIn(username);
  const { AccessToken, RefreshToken } = AuthenticationResult ?? {};
  if (!AccessToken || !RefreshToken) throw new Error("The sign-in answered no tokens");
  return { AccessToken, RefreshToken };
}

function refresh(refreshToken: string) {
  return cognito.send(
    new InitiateAuthCommand({
      AuthFlow: "REFRESH_TOKEN_AUTH",
      ClientId: "membersconsole",
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    }),
  );
}

/** Whether the token's signature and expiry hold by the pool's published keys, as any verifier checks them. */
async function signatureHolds(token: string): Promise<boolean> {
  const { keys } = (await (await fetch(`${identity.url}/${POOL.id}/.well-known/jwks.json`)).json()) as {
    keys: never[];
  };
  return jwtVerify(token, createLocalJWKSet({ keys })).then(
    () => true,
    () => false,
  );
}

const revoked = (message: string) => ({ name: "NotAuthorizedException", message });

describe("the member lifecycle", () => {
  it("takes a user out of a group: tokens issued keep it until they expire, the next refresh leaves it out", async () => {
    await member("leaving-admin", ["reviewers", "admins"]);
    const signedIn = await tokens("leaving-admin");
    await cognito.send(new AdminRemoveUserFromGroupCommand({ ...named("leaving-admin"), GroupName: "admins" }));
    const { Groups } = await cognito.send(new AdminListGroupsForUserCommand(named("leaving-admin")));
    expect(Groups?.map((group) => group.GroupName)).toEqual(["reviewers"]);
    expect(decodeJwt(signedIn.AccessToken)["cognito:groups"]).toEqual(["reviewers", "admins"]);
    const refreshed = (await refresh(signedIn.RefreshToken)).AuthenticationResult?.AccessToken ?? "";
    expect(decodeJwt(refreshed)["cognito:groups"]).toEqual(["reviewers"]);

    await expect(
      cognito.send(new AdminRemoveUserFromGroupCommand({ ...named("leaving-admin"), GroupName: "owners" })),
    ).rejects.toMatchObject({ name: "ResourceNotFoundException", message: "Group not found." });
    await expect(
      cognito.send(new AdminRemoveUserFromGroupCommand({ ...named("nobody-at-all"), GroupName: "admins" })),
    ).rejects.toMatchObject({ name: "UserNotFoundException", message: "User does not exist." });
  });

  it("signs a user out everywhere: refresh tokens refused, access tokens refused by GetUser though still signed", async () => {
    await member("signed-out", ["reviewers"]);
    const first = await tokens("signed-out");
    const second = await tokens("signed-out");
    await cognito.send(new AdminUserGlobalSignOutCommand(named("signed-out")));
    for (const signedIn of [first, second]) {
      await expect(refresh(signedIn.RefreshToken)).rejects.toMatchObject(revoked("Refresh Token has been revoked"));
      await expect(cognito.send(new GetUserCommand({ AccessToken: signedIn.AccessToken }))).rejects.toMatchObject(
        revoked("Access Token has been revoked"),
      );
      expect(await signatureHolds(signedIn.AccessToken)).toBe(true);
    }
    // Signing in again is a new sign-in, untouched by the sign-out before it.
    const again = await tokens("signed-out");
    expect((await cognito.send(new GetUserCommand({ AccessToken: again.AccessToken }))).Username).toBe("signed-out");
  });

  it("keeps a disabled user out, and lets them in again once enabled, without their old sign-ins", async () => {
    await member("paused", ["reviewers"]);
    const before = await tokens("paused");
    await cognito.send(new AdminDisableUserCommand(named("paused")));
    const disabled = revoked("User is disabled.");
    await expect(signIn("paused")).rejects.toMatchObject(disabled);
    await expect(refresh(before.RefreshToken)).rejects.toMatchObject(disabled);
    await expect(cognito.send(new GetUserCommand({ AccessToken: before.AccessToken }))).rejects.toMatchObject(disabled);

    await cognito.send(new AdminEnableUserCommand(named("paused")));
    await tokens("paused");
    await expect(refresh(before.RefreshToken)).rejects.toMatchObject(revoked("Refresh Token has been revoked"));
  });

  it("deletes a user with every sign-in: a user made later under the same name inherits none of them", async () => {
    await member("deleted", ["admins"]);
    const before = await tokens("deleted");
    // A sign-in half done when the user goes: its session must not finish for anyone.
    await cognito.send(new AdminSetUserPasswordCommand({ ...named("deleted"), Password: "Temporary-pass-1" }));
    const pending = await cognito.send(
      new InitiateAuthCommand({
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: "membersconsole",
        AuthParameters: { USERNAME: "deleted", PASSWORD: "Temporary-pass-1" },
      }),
    );
    expect(pending.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");

    await cognito.send(new AdminDeleteUserCommand(named("deleted")));
    await expect(cognito.send(new AdminGetUserCommand(named("deleted")))).rejects.toMatchObject({
      name: "UserNotFoundException",
    });
    await expect(signIn("deleted")).rejects.toMatchObject(revoked("Incorrect username or password."));
    await expect(cognito.send(new AdminDeleteUserCommand(named("deleted")))).rejects.toMatchObject({
      name: "UserNotFoundException",
    });

    await member("deleted");
    await expect(refresh(before.RefreshToken)).rejects.toMatchObject({ name: "NotAuthorizedException" });
    await expect(cognito.send(new GetUserCommand({ AccessToken: before.AccessToken }))).rejects.toMatchObject({
      name: "UserNotFoundException",
      message: "User does not exist.",
    });
    await expect(
      cognito.send(
        new RespondToAuthChallengeCommand({
          ClientId: "membersconsole",
          ChallengeName: "NEW_PASSWORD_REQUIRED",
          Session: pending.Session,
          ChallengeResponses: { USERNAME: "deleted", NEW_PASSWORD: "Takeover-password-1" },
        }),
      ),
    ).rejects.toMatchObject({ name: "NotAuthorizedException" });
    // The new user keeps their own password and no group of the old one.
    const fresh = await tokens("deleted");
    expect(decodeJwt(fresh.AccessToken)).not.toHaveProperty("cognito:groups");
  });
});
