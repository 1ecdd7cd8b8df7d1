/**
 * The admin calls the ops command and the local seeding make, signed with AWS credentials at
 * Cognito (not checked here). Unlike the calls a user makes, they say when a user does not exist.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { existingUser, fields, type IdentityContext, type PoolAccess, parseInput, poolById } from "./context.ts";
import { CognitoError, invalidParameter } from "./errors.ts";
import { addUser, checkPasswordPolicy, hashPassword, userNamed, userType } from "./store.ts";

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
  // RESEND re-invites a user who exists; nobody asks for it, and no invitation leaves this machine.
  MessageAction: z.literal("SUPPRESS").optional(),
  DesiredDeliveryMediums: z.array(z.enum(["SMS", "EMAIL"])).optional(),
  ClientMetadata: fields.callerExtras.ClientMetadata,
});

async function adminCreateUser(context: IdentityContext, input: unknown) {
  const parsed = parseInput(createUserInput, input);
  const pool = poolById(context, parsed.UserPoolId);
  const attributes = checkAttributes(parsed.UserAttributes ?? []);
  if (userNamed(pool.data, parsed.Username)) {
    throw new CognitoError("UsernameExistsException", "User account already exists");
  }
  if (parsed.TemporaryPassword !== undefined) checkPasswordPolicy(parsed.TemporaryPassword);
  // Without one, Cognito makes a temporary password and mails it; here it is kept and shown to
  // nobody, so the user signs in only once an admin sets a password.
  const temporary = parsed.TemporaryPassword ?? `${randomBytes(24).toString("base64url")}aA1!`;
  const now = context.now();
  const user = {
    username: parsed.Username,
    sub: randomUUID(),
    attributes,
    passwordHash: await hashPassword(temporary),
    passwordSetAt: now,
    status: "FORCE_CHANGE_PASSWORD" as const,
    enabled: true,
    groups: [],
    createdAt: now,
    modifiedAt: now,
  };
  addUser(pool.data, user);
  context.store.save();
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

export const ADMIN_OPERATIONS = {
  AdminCreateUser: adminCreateUser,
  AdminSetUserPassword: adminSetUserPassword,
  AdminAddUserToGroup: adminAddUserToGroup,
  AdminDisableUser: adminDisableUser,
  AdminEnableUser: adminEnableUser,
  AdminUserGlobalSignOut: adminUserGlobalSignOut,
  AdminGetUser: adminGetUser,
  ListUsers: listUsers,
  AdminListGroupsForUser: adminListGroupsForUser,
};
