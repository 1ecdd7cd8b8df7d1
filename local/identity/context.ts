/** What every operation of the local identity endpoint works with, and how it finds a pool. */
import { z } from "zod";
import { CognitoError, invalidParameter } from "./errors.ts";
import type { FailedSignIns } from "./lockout.ts";
import { type IdentityStore, type PoolData, type StoredUser, userNamed } from "./store.ts";
import type { Signer } from "./tokens.ts";

export interface PoolConfig {
  /** Region-style, as Cognito's (`us-east-1_Something`): the verifier derives the issuer from it. */
  id: string;
  clientIds: readonly string[];
  groups: readonly string[];
  /** `required`: a user without TOTP sets it up at sign-in; `optional`: only users with TOTP are asked. */
  mfa: "off" | "optional" | "required";
}

/** A challenge in progress: what the `Session` string of a challenge answer stands for. */
export interface ChallengeSession {
  challenge: "NEW_PASSWORD_REQUIRED" | "SOFTWARE_TOKEN_MFA" | "MFA_SETUP";
  poolId: string;
  clientId: string;
  username: string;
  expiresAt: number;
  /** MFA_SETUP: the secret AssociateSoftwareToken handed out, and whether VerifySoftwareToken saw a code of it. */
  secret?: string;
  verified?: boolean;
}

export interface IdentityContext {
  pools: ReadonlyMap<string, PoolConfig>;
  store: IdentityStore;
  /** The access key the admin API's calls are signed with (the runtime's, random per data directory). */
  adminCredentials: { accessKeyId: string; secretAccessKey: string };
  signer: Signer;
  /** In memory only: a challenge outlives no restart, as it outlives no three minutes at Cognito. */
  sessions: Map<string, ChallengeSession>;
  /**
   * Wrong passwords given for usernames no user has, by pool and username: they lock out as a
   * user's do, so the lockout tells nobody who exists. In memory, and forgotten after 15 idle minutes.
   */
  unknownSignIns: Map<string, FailedSignIns>;
  /** A hash of no one's password: an unknown username's password is checked against it, as long as a user's. */
  dummyPasswordHash: string;
  /** The folder invitations are written to, one JSON file per message; none are written without it. */
  mailbox: string | undefined;
  now: () => number;
}

export interface PoolAccess {
  config: PoolConfig;
  data: PoolData;
}

export function poolById(context: IdentityContext, userPoolId: string): PoolAccess {
  const config = context.pools.get(userPoolId);
  if (!config) throw new CognitoError("ResourceNotFoundException", `User pool ${userPoolId} does not exist.`);
  return { config, data: context.store.pool(userPoolId) };
}

export function poolOfClient(context: IdentityContext, clientId: string): PoolAccess {
  for (const config of context.pools.values()) {
    if (config.clientIds.includes(clientId)) return { config, data: context.store.pool(config.id) };
  }
  throw new CognitoError("ResourceNotFoundException", `User pool client ${clientId} does not exist.`);
}

/**
 * For admin calls only: the calls a user makes answer NotAuthorizedException instead, to hide who
 * exists. As Cognito's admin API does, `username` may also be the user's `sub`.
 */
export function existingUser(pool: PoolAccess, username: string): StoredUser {
  const user = userNamed(pool.data, username) ?? Object.values(pool.data.users).find((held) => held.sub === username);
  if (!user) throw new CognitoError("UserNotFoundException", "User does not exist.");
  return user;
}

/** Parses an operation's input, refusing it as Cognito refuses input that breaks its model's constraints. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `Value at '${issue.path.join(".") || "input"}' failed to satisfy constraint: ${issue.message}`,
  );
  throw invalidParameter(
    `${problems.length} validation error${problems.length === 1 ? "" : "s"} detected: ${problems.join("; ")}`,
  );
}

/** Input fields with the constraints of Cognito's API model. */
export const fields = {
  userPoolId: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/)
    .max(55),
  clientId: z
    .string()
    .regex(/^[\w+]+$/)
    .max(128),
  username: z
    .string()
    .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u)
    .max(128),
  password: z.string().max(256),
  groupName: z
    .string()
    .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u)
    .max(128),
  session: z.string().min(20).max(2048),
  accessToken: z.string().regex(/^[A-Za-z0-9-_=.]+$/),
  /** What a caller may send that only Lambda triggers, analytics or threat protection read: none of them here. */
  callerExtras: {
    ClientMetadata: z.record(z.string(), z.string()).optional(),
    AnalyticsMetadata: z.unknown().optional(),
    UserContextData: z.unknown().optional(),
  },
};
