/**
 * The staff user pool through Cognito's admin API: users created by an admin only, with a
 * temporary password shown once (no invitation mail), signed out everywhere when disabled.
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminEnableUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  type CognitoIdentityProviderClient,
  ListUsersCommand,
  UsernameExistsException,
  type UserType,
} from "@aws-sdk/client-cognito-identity-provider";
import { NotFoundError, RefusedError } from "../domain/errors.ts";
import { type StaffGroup, staffPassword } from "../domain/staff.ts";
import type { StaffDirectory, StaffMember } from "../ports/identity.ts";
import { disableUser, memberOf, onUser } from "./cognito-users.ts";

export function cognitoStaffDirectory(cognito: CognitoIdentityProviderClient, userPoolId: string): StaffDirectory {
  const notFound = (username: string) =>
    new NotFoundError("staff_user_not_found", `No staff user is named ${username}`);

  async function groupsOf(username: string): Promise<string[]> {
    const groups: string[] = [];
    let NextToken: string | undefined;
    do {
      const page = await cognito.send(
        new AdminListGroupsForUserCommand({ UserPoolId: userPoolId, Username: username, NextToken }),
      );
      groups.push(...(page.Groups ?? []).flatMap((group) => (group.GroupName ? [group.GroupName] : [])));
      NextToken = page.NextToken;
    } while (NextToken);
    return groups;
  }

  return {
    async add(input: { username: string; email?: string; groups: readonly StaffGroup[] }) {
      const password = staffPassword();
      const { User } = await cognito
        .send(
          new AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: input.username,
            TemporaryPassword: password,
            // The admin hands the password over; Cognito's invitation mail would be a second copy.
            MessageAction: "SUPPRESS",
            // Verified by the admin who hands over the account, so recovery by email works from the start.
            ...(input.email
              ? {
                  UserAttributes: [
                    { Name: "email", Value: input.email },
                    { Name: "email_verified", Value: "true" },
                  ],
                }
              : {}),
          }),
        )
        .catch((error: unknown) => {
          if (error instanceof UsernameExistsException) {
            throw new RefusedError("user_exists", `A user named ${input.username} exists already in this pool`);
          }
          throw error;
        });
      for (const GroupName of input.groups) {
        await cognito.send(
          new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: input.username, GroupName }),
        );
      }
      return { member: memberOf(User ?? { Username: input.username }, [...input.groups]), temporaryPassword: password };
    },

    async disable(username: string) {
      await disableUser(cognito, userPoolId, username, notFound(username));
    },

    async enable(username: string) {
      await onUser(notFound(username), () =>
        cognito.send(new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: username })),
      );
    },

    async removeFromGroup(username: string, group: StaffGroup) {
      await onUser(notFound(username), () =>
        cognito.send(
          new AdminRemoveUserFromGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: group }),
        ),
      );
    },

    async list() {
      const users: UserType[] = [];
      let PaginationToken: string | undefined;
      do {
        const page = await cognito.send(new ListUsersCommand({ UserPoolId: userPoolId, PaginationToken }));
        users.push(...(page.Users ?? []));
        PaginationToken = page.PaginationToken;
      } while (PaginationToken);
      // One at a time: Cognito's admin reads are throttled per account, and a staff pool is small.
      const members: StaffMember[] = [];
      for (const user of users) members.push(memberOf(user, await groupsOf(user.Username ?? "")));
      return members.sort((a, b) => a.username.localeCompare(b.username));
    },
  };
}
