/** Users of the local user pools, made through their admin API and signed in as the pages sign in. */
import { randomUUID } from "node:crypto";
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { type StaffGroup, staffPassword } from "#shared/domain/staff";

/** A confirmed user of a local pool, signed in. */
export interface StaffUser {
  username: string;
  password: string;
  sub: string;
  accessToken: string;
  idToken: string;
}

/** Creates a confirmed user of `pool` through its admin API and signs them in with a password. */
export async function signedInUser(
  cognito: CognitoIdentityProviderClient,
  pool: { id: string; clientId: string },
  groups: readonly StaffGroup[],
): Promise<StaffUser> {
  const UserPoolId = pool.id;
  const username = `user-${randomUUID().slice(0, 8)}`;
  const password = staffPassword();
  await cognito.send(new AdminCreateUserCommand({ UserPoolId, Username: username, MessageAction: "SUPPRESS" }));
  await cognito.send(
    new AdminSetUserPasswordCommand({ UserPoolId, Username: username, Password: password, Permanent: true }),
  );
  for (const GroupName of groups) {
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: username, GroupName }));
  }
  const { AuthenticationResult } = await cognito.send(
    new InitiateAuthCommand({
      ClientId: pool.clientId,
      AuthFlow: "USER_PASSWORD_AUTH",
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  );
  if (!AuthenticationResult?.AccessToken || !AuthenticationResult.IdToken) throw new Error("No tokens for a new user");
  const { UserAttributes = [] } = await cognito.send(new AdminGetUserCommand({ UserPoolId, Username: username }));
  const sub = UserAttributes.find((attribute) => attribute.Name === "sub")?.Value;
  if (!sub) throw new Error("A new user has no sub");
  return {
    username,
    password,
    sub,
    accessToken: AuthenticationResult.AccessToken,
    idToken: AuthenticationResult.IdToken,
  };
}
