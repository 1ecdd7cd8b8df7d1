/**
 * The admin calls the ops command, the functions and the local seeding make: Cognito authorizes
 * them with IAM, so each must come signed with AWS credentials (checked in `server.ts` before any
 * of these runs). Unlike the calls a user makes, they say when a user does not exist.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { existingUser, fields, type IdentityContext, type PoolAccess, parseInput, poolById } from "./context.ts";
import { CognitoError, invalidParameter } from "./errors.ts";
import { deliver, invitation } from "./mailbox.ts";
import {
  addUser,
  checkPasswordPolicy,
  hashPassword,
  removeUser,
  type StoredUser,
  userNamed,
  userType,
} from "./store.ts";

const userInput = z.strictObject({ UserPoolId: fields.userPoolId, Username: fields.username });

/** The pool and user an admin call names; UserNotFoundException when there is none. */
function target(context: IdentityContext, { UserPoolId, Username }: z.infer<typeof userInput>) {
  const pool = poolById(context, UserPoolId);
  return { pool, user: existingUser(pool, Username) };
}

/** The attributes the pools' schema has: an email, and whether it was verified. */
const WRITABLE_ATTRIBUTES = ["email", "email_verified"];

function checkAttributes(attributes: { Name: string; Value: string }[]): Record<string, string> {
  for (const { Name, Value } of attributes) {
    if (!WRITABLE_ATTRIBUTES.includes(Name)) {
      const reason = Name === "sub" ? "Attribute cannot be updated." : "Attribute does not exist in the schema.";
      throw invalidParameter(`Attributes did not conform to the schema: ${Name}: ${reason}`);
    }
    if (Name === "email" && !z.email().safeParse(Value).success) {
      throw invalidParameter("Invalid email address format.");
    }
  }
  return Object.fromEntries(attributes.map(({ Name, Value }) => [Name, Value]));
}

const createUserInput = z.strictObject({
  UserPoolId: fields.userPoolId,
  Username: fields.username,
  UserAttributes: z.array(z.strictObject({ Name: z.string().min(1).max(32), Value: z.string().max(2048) })).optional(),
  TemporaryPassword: fields.password.optional(),
  // SUPPRESS sends no invitation; RESEND sends a user who exists a new one, with a new temporary password.
  MessageAction: z.enum(["SUPPRESS", "RESEND"]).optional(),
  DesiredDeliveryMediums: z.array(z.enum(["SMS", "EMAIL"])).optional(),
  ClientMetadata: fields.callerExtras.ClientMetadata,
});

/**
 * Where the invitation goes: the user's email. Cognito's default medium is SMS, and it mails a
 * user who has an email and no phone number; the pools here hold no phone numbers, so an
 * invitation that can reach no email address is refused rather than lost.
 */
function invitationAddress(attributes: Record<string, string>, mediums: readonly string[] | undefined): string {
  const email = attributes.email;
  if (!email || (mediums !== undefined && !mediums.includes("EMAIL"))) {
    throw invalidParameter("User has no attribute matching desired delivery mediums");
  }
  return email;
}

/** A temporary password Cognito's policy takes, for a user created or re-invited without one. */
const madeUpPassword = () => `${randomBytes(24).toString("base64url")}aA1!`;

function sendInvitation(context: IdentityContext, pool: PoolAccess, user: StoredUser, to: string, password: string) {
  if (!context.mailbox) return;
  deliver(context.mailbox, pool.config.id, user.username, invitation(to, user.username, password), context.now());
}

/** RESEND: a new temporary password for a user who has not set one yet, sent in a new invitation. */
async function resendInvitation(context: IdentityContext, input: z.infer<typeof createUserInput>) {
  const { pool, user } = target(context, input);
  if (user.status !== "FORCE_CHANGE_PASSWORD") {
    throw new CognitoError(
      "UnsupportedUserStateException",
      `Resend not possible. ${input.Username} status is not FORCE_CHANGE_PASSWORD`,
    );
  }
  const to = invitationAddress(user.attributes, input.DesiredDeliveryMediums);
  if (input.TemporaryPassword !== undefined) checkPasswordPolicy(input.TemporaryPassword);
  const temporary = input.TemporaryPassword ?? madeUpPassword();
  const now = context.now();
  // A new temporary password starts the seven days it is valid for again.
  Object.assign(user, { passwordHash: await hashPassword(temporary), passwordSetAt: now, modifiedAt: now });
  context.store.save();
  sendInvitation(context, pool, user, to, temporary);
  return { User: userType(user) };
}

async function adminCreateUser(context: IdentityContext, input: unknown) {
  const parsed = parseInput(createUserInput, input);
  if (parsed.MessageAction === "RESEND") return resendInvitation(context, parsed);
  const pool = poolById(context, parsed.UserPoolId);
  const attributes = checkAttributes(parsed.UserAttributes ?? []);
  if (userNamed(pool.data, parsed.Username)) {
    throw new CognitoError("UsernameExistsException", "User account already exists");
  }
  if (parsed.TemporaryPassword !== undefined) checkPasswordPolicy(parsed.TemporaryPassword);
  const to =
    parsed.MessageAction === "SUPPRESS" ? undefined : invitationAddress(attributes, parsed.DesiredDeliveryMediums);
  // Without one, a temporary password is made up: the invitation carries it, and nothing else
  // does (with SUPPRESS, nobody learns it, so the user signs in once an admin sets a password).
  const temporary = parsed.TemporaryPassword ?? madeUpPassword();
  const passwordHash = await hashPassword(temporary);
  // Asked again: another call may have made the user while this one hashed.
  if (userNamed(pool.data, parsed.Username)) {
    throw new CognitoError("UsernameExistsException", "User account already exists");
  }
  const now = context.now();
  const user: StoredUser = {
    username: parsed.Username,
    sub: randomUUID(),
    attributes,
    passwordHash,
    passwordSetAt: now,
    status: "FORCE_CHANGE_PASSWORD",
    enabled: true,
    groups: [],
    createdAt: now,
    modifiedAt: now,
  };
  addUser(pool.data, user);
  context.store.save();
  if (to !== undefined) sendInvitation(context, pool, user, to, temporary);
  return { User: userType(user) };
}

const setPasswordInput = userInput.extend({ Password: fields.password, Permanent: z.boolean().optional() });

async function adminSetUserPassword(context: IdentityContext, input: unknown) {
  const { Password, Permanent, ...named } = parseInput(setPasswordInput, input);
  const { user } = target(context, named);
  checkPasswordPolicy(Password);
  const now = context.now();
  Object.assign(user, {
    passwordHash: await hashPassword(Password),
    passwordSetAt: now,
    status: Permanent ? "CONFIRMED" : "FORCE_CHANGE_PASSWORD",
    modifiedAt: now,
  });
  context.store.save();
  return {};
}

const groupInput = userInput.extend({ GroupName: fields.groupName });

function adminAddUserToGroup(context: IdentityContext, input: unknown) {
  const { GroupName, ...named } = parseInput(groupInput, input);
  const { pool, user } = target(context, named);
  if (!pool.config.groups.includes(GroupName)) throw new CognitoError("ResourceNotFoundException", "Group not found.");
  if (!user.groups.includes(GroupName)) user.groups.push(GroupName);
  context.store.save();
  return {};
}

function adminRemoveUserFromGroup(context: IdentityContext, input: unknown) {
  const { GroupName, ...named } = parseInput(groupInput, input);
  const { pool, user } = target(context, named);
  if (!pool.config.groups.includes(GroupName)) throw new CognitoError("ResourceNotFoundException", "Group not found.");
  // Tokens issued already keep the group until they expire; the next refresh leaves it out.
  user.groups = user.groups.filter((group) => group !== GroupName);
  user.modifiedAt = context.now();
  context.store.save();
  return {};
}

/** Deletes the user with every sign-in and challenge of theirs: a user of the same name made later is someone else. */
function adminDeleteUser(context: IdentityContext, input: unknown) {
  const { pool, user } = target(context, parseInput(userInput, input));
  removeUser(pool.data, user);
  for (const [id, session] of context.sessions) {
    if (session.poolId === pool.config.id && session.username.toLowerCase() === user.username.toLowerCase()) {
      context.sessions.delete(id);
    }
  }
  context.store.save();
  return {};
}

/** Revokes every sign-in of the user: refresh tokens stop working, GetUser refuses their access tokens. */
function signOutEverywhere(pool: PoolAccess, username: string): void {
  for (const origin of Object.values(pool.data.signIns)) {
    if (origin.username === username) origin.revoked = true;
  }
}

function adminUserGlobalSignOut(context: IdentityContext, input: unknown) {
  const { pool, user } = target(context, parseInput(userInput, input));
  signOutEverywhere(pool, user.username);
  context.store.save();
  return {};
}

/** Disabling revokes the user's tokens too, as Cognito's AdminDisableUser does. */
function adminDisableUser(context: IdentityContext, input: unknown) {
  const { pool, user } = target(context, parseInput(userInput, input));
  Object.assign(user, { enabled: false, modifiedAt: context.now() });
  signOutEverywhere(pool, user.username);
  context.store.save();
  return {};
}

function adminEnableUser(context: IdentityContext, input: unknown) {
  const { user } = target(context, parseInput(userInput, input));
  Object.assign(user, { enabled: true, modifiedAt: context.now() });
  context.store.save();
  return {};
}

function adminGetUser(context: IdentityContext, input: unknown) {
  const { user } = target(context, parseInput(userInput, input));
  const { Attributes, ...rest } = userType(user);
  return {
    ...rest,
    UserAttributes: Attributes,
    ...(user.totpSecret
      ? { PreferredMfaSetting: "SOFTWARE_TOKEN_MFA", UserMFASettingList: ["SOFTWARE_TOKEN_MFA"] }
      : {}),
  };
}

/** A page of `items` from the opaque token (an offset); the next token while any are left. */
function page<T>(items: T[], limit: number | undefined, token: string | undefined) {
  const start = token === undefined ? 0 : Number(Buffer.from(token, "base64url").toString());
  if (!Number.isInteger(start) || start < 0) throw invalidParameter("Invalid pagination token.");
  const end = start + (limit || 60);
  const next = end < items.length ? Buffer.from(String(end)).toString("base64url") : undefined;
  return { items: items.slice(start, end), next };
}

const listUsersInput = z.strictObject({
  UserPoolId: fields.userPoolId,
  Limit: z.number().int().min(0).max(60).optional(),
  PaginationToken: z.string().min(1).optional(),
});

function listUsers(context: IdentityContext, input: unknown) {
  const { UserPoolId, Limit, PaginationToken } = parseInput(listUsersInput, input);
  const { items, next } = page(Object.values(poolById(context, UserPoolId).data.users), Limit, PaginationToken);
  return { Users: items.map(userType), ...(next ? { PaginationToken: next } : {}) };
}

const listGroupsInput = userInput.extend({
  Limit: z.number().int().min(0).max(60).optional(),
  NextToken: z.string().min(1).optional(),
});

function adminListGroupsForUser(context: IdentityContext, input: unknown) {
  const { Limit, NextToken, ...named } = parseInput(listGroupsInput, input);
  const { user } = target(context, named);
  const { items, next } = page(user.groups, Limit, NextToken);
  return {
    Groups: items.map((GroupName) => ({ GroupName, UserPoolId: named.UserPoolId })),
    ...(next ? { NextToken: next } : {}),
  };
}

/** Every operation here is one Cognito authorizes with IAM: none answers a request that is not signed. */
export const ADMIN_OPERATIONS = {
  AdminCreateUser: adminCreateUser,
  AdminSetUserPassword: adminSetUserPassword,
  AdminAddUserToGroup: adminAddUserToGroup,
  AdminRemoveUserFromGroup: adminRemoveUserFromGroup,
  AdminDeleteUser: adminDeleteUser,
  AdminDisableUser: adminDisableUser,
  AdminEnableUser: adminEnableUser,
  AdminUserGlobalSignOut: adminUserGlobalSignOut,
  AdminGetUser: adminGetUser,
  ListUsers: listUsers,
  AdminListGroupsForUser: adminListGroupsForUser,
};
