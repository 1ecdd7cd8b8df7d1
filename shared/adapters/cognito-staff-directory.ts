/**
 * The staff user pool through Cognito's admin API: users created by an admin only, with a
 * temporary password shown once (no invitation mail), signed out everywhere when disabled.
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUserGlobalSignOutCommand,
  type CognitoIdentityProviderClient,
  ListUsersCommand,
  UserNotFoundException,
  UsernameExistsException,
  type UserType,
} from "@aws-sdk/client-cognito-identity-provider";
import { NotFoundError, RefusedError } from "../domain/errors.ts";
import { type StaffGroup, staffPassword } from "../domain/staff.ts";
import type { StaffDirectory, StaffMember } from "../ports/identity.ts";

export function memberOf(user: UserType, groups: string[]): StaffMember {
  return {
    username: user.Username ?? "",
    sub: user.Attributes?.find((attribute) => attribute.Name === "sub")?.Value ?? "",
    enabled: user.Enabled ?? false,
    status: user.UserStatus ?? "UNKNOWN",
    groups,
    created_at: (user.UserCreateDate ?? new Date(0)).toISOString(),
  };
}

/** `call` on a user, a user the pool does not have answered as `notFound`. */
export async function onUser<T>(notFound: NotFoundError, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof UserNotFoundException) throw notFound;
    throw error;
  }
}

/** Disables `username` in the pool, then ends every session of theirs. */
export async function disableUser(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  username: string,
  notFound: NotFoundError,
): Promise<void> {
  await onUser(notFound, () =>
    cognito.send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: username })),
  );
  await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: username }));
}

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
