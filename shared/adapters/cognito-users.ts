/**
 * What the staff and the customer directories do alike to a user of a Cognito pool: read one as
 * the ports show it, answer a user the pool does not have as not found, disable and sign out.
 */
import {
  AdminDisableUserCommand,
  AdminUserGlobalSignOutCommand,
  type CognitoIdentityProviderClient,
  UserNotFoundException,
  type UserType,
} from "@aws-sdk/client-cognito-identity-provider";
import type { NotFoundError } from "../domain/errors.ts";
import type { StaffMember } from "../ports/identity.ts";

/** A pool's user as the directories show it, in `groups`. */
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
