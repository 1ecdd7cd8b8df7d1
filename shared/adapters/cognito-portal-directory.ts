/**
 * The customer pool through Cognito's admin API: an organisation's people, invited by the pool's
 * own invitation mail (the temporary password goes to the invitee only), disabled or deleted
 * with every session of theirs ended, each by their sub.
 */
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminUserGlobalSignOutCommand,
  type CognitoIdentityProviderClient,
  UserNotFoundException,
  UsernameExistsException,
} from "@aws-sdk/client-cognito-identity-provider";
import { NotFoundError, RefusedError } from "../domain/errors.ts";
import type { PoolPerson, PortalDirectory } from "../ports/identity.ts";
import { disableUser, memberOf } from "./cognito-users.ts";

export function cognitoPortalDirectory(cognito: CognitoIdentityProviderClient, userPoolId: string): PortalDirectory {
  const notFound = (username: string) =>
    new NotFoundError("member_not_found", `No member of your organisation is named ${username}`);

  return {
    async invite(input: { username: string; email: string }) {
      const { User } = await cognito
        .send(
          new AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: input.username,
            // No TemporaryPassword and no MessageAction: the pool makes one and mails it to the invitee.
            DesiredDeliveryMediums: ["EMAIL"],
            // The invitation arriving there is what verifies it; recovery by email works from the start.
            UserAttributes: [
              { Name: "email", Value: input.email },
              { Name: "email_verified", Value: "true" },
            ],
          }),
        )
        .catch((error: unknown) => {
          // The pool's usernames are one namespace: say it is taken, never by whom or where.
          if (error instanceof UsernameExistsException) {
            throw new RefusedError("user_exists", `The username ${input.username} is taken; choose another`);
          }
          throw error;
        });
      return memberOf(User ?? { Username: input.username }, []);
    },

    // Each call names the user by their sub, which Cognito's admin API takes in place of the
    // username: it reaches the person the membership names, or nobody, never a later holder of
    // the same username.
    async hasSignedIn(person: PoolPerson) {
      try {
        const { UserStatus } = await cognito.send(
          new AdminGetUserCommand({ UserPoolId: userPoolId, Username: person.sub }),
        );
        return UserStatus !== "FORCE_CHANGE_PASSWORD";
      } catch (error) {
        // Deleted from the pool meanwhile: no invitation of theirs is waiting any more.
        if (error instanceof UserNotFoundException) return true;
        throw error;
      }
    },

    async disable(person: PoolPerson) {
      await disableUser(cognito, userPoolId, person.sub, notFound(person.username));
    },

    async remove(person: PoolPerson) {
      try {
        await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: person.sub }));
        await cognito.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: person.sub }));
      } catch (error) {
        // Gone from the pool already: there is nobody left to sign out or delete.
        if (!(error instanceof UserNotFoundException)) throw error;
      }
    },
  };
}
