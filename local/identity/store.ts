/**
 * What the local identity endpoint remembers: its signing key, and per pool the users and their
 * sign-ins (one per refresh token). Kept in a JSON file when given one, so `npm start` finds the
 * same users and still accepts the tokens it issued before a restart; in memory otherwise.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { z } from "zod";
import { writeDataFile } from "../data-file.ts";
import { CognitoError } from "./errors.ts";
import { failedSignInsSchema } from "./lockout.ts";

const userSchema = z.object({
  username: z.string(),
  sub: z.string(),
  attributes: z.record(z.string(), z.string()),
  passwordHash: z.string(),
  passwordSetAt: z.number(),
  status: z.enum(["FORCE_CHANGE_PASSWORD", "CONFIRMED"]),
  enabled: z.boolean(),
  groups: z.array(z.string()),
  /** Verified TOTP secret: from then on each sign-in asks for a code. */
  totpSecret: z.string().optional(),
  /** Handed out by AssociateSoftwareToken with an access token, until VerifySoftwareToken proves the app has it. */
  pendingTotpSecret: z.string().optional(),
  /** Wrong passwords and the lockout they led to, kept here so a restart does not lift a lockout. */
  failedSignIns: failedSignInsSchema.optional(),
  createdAt: z.number(),
  modifiedAt: z.number(),
});
export type StoredUser = z.infer<typeof userSchema>;

/** One sign-in: its refresh token (hashed) and the `origin_jti` every token it yields carries. */
const signInSchema = z.object({
  username: z.string(),
  clientId: z.string(),
  refreshHash: z.string(),
  authTime: z.number(),
  expiresAt: z.number(),
  revoked: z.boolean(),
});
export type SignIn = z.infer<typeof signInSchema>;

const poolDataSchema = z.object({
  users: z.record(z.string(), userSchema),
  signIns: z.record(z.string(), signInSchema),
});
export type PoolData = z.infer<typeof poolDataSchema>;

const stateSchema = z.object({
  /** The private signing key as a JWK, with its `kid`. */
  key: z.record(z.string(), z.unknown()).optional(),
  pools: z.record(z.string(), poolDataSchema),
});
type State = z.infer<typeof stateSchema>;

/**
 * Users by username in any case, as the deployed pools sign in (`signInCaseSensitive: false`);
 * each keeps the spelling it was created with, which its tokens carry.
 */
export function userNamed(data: PoolData, username: string): StoredUser | undefined {
  return data.users[username.toLowerCase()];
}

export function addUser(data: PoolData, user: StoredUser): void {
  data.users[user.username.toLowerCase()] = user;
}

/** Removes the user and every sign-in of theirs: no refresh token of theirs works again. */
export function removeUser(data: PoolData, user: StoredUser): void {
  delete data.users[user.username.toLowerCase()];
  for (const [id, signIn] of Object.entries(data.signIns)) {
    if (signIn.username.toLowerCase() === user.username.toLowerCase()) delete data.signIns[id];
  }
}

export class IdentityStore {
  private constructor(
    private readonly file: string | undefined,
    readonly state: State,
  ) {}

  static load(file?: string): IdentityStore {
    const state = file && existsSync(file) ? stateSchema.parse(JSON.parse(readFileSync(file, "utf8"))) : { pools: {} };
    return new IdentityStore(file, state);
  }

  pool(id: string): PoolData {
    this.state.pools[id] ??= { users: {}, signIns: {} };
    return this.state.pools[id];
  }

  /** Written whole after each change, through a rename, so a killed process leaves the old file or the new one. */
  save(): void {
    if (!this.file) return;
    writeDataFile(this.file, JSON.stringify(this.state), { secret: true });
  }
}

/** The deployed staff pool's policy, with Cognito's own messages. */
const POLICY: [RegExp, string][] = [
  [/^.{12,}$/su, "Password not long enough"],
  [/\p{Lu}/u, "Password must have uppercase characters"],
  [/\p{Ll}/u, "Password must have lowercase characters"],
  [/[0-9]/, "Password must have numeric characters"],
  [/[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/, "Password must have symbol characters"],
];

export function checkPasswordPolicy(password: string): void {
  const broken = POLICY.find(([rule]) => !rule.test(password));
  if (broken) throw new CognitoError("InvalidPasswordException", `Password did not conform with policy: ${broken[1]}`);
}

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

/** Salted scrypt: the data file sits in the working tree, where a plain password has no business. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `${salt.toString("base64")}:${(await scryptAsync(password, salt, 32)).toString("base64")}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [salt = "", hash = ""] = stored.split(":");
  const given = await scryptAsync(password, Buffer.from(salt, "base64"), 32);
  const expected = Buffer.from(hash, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function attributeList(user: StoredUser): { Name: string; Value: string }[] {
  return [
    { Name: "sub", Value: user.sub },
    ...Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value })),
  ];
}

/** Cognito's JSON protocol sends dates as epoch seconds. */
export const epochSeconds = (ms: number) => ms / 1000;

/** A user as AdminCreateUser and ListUsers answer it (`UserType`). */
export function userType(user: StoredUser) {
  return {
    Username: user.username,
    Attributes: attributeList(user),
    UserCreateDate: epochSeconds(user.createdAt),
    UserLastModifiedDate: epochSeconds(user.modifiedAt),
    Enabled: user.enabled,
    UserStatus: user.status,
  };
}
