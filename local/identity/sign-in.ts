/**
 * Signing in as Cognito's public API does it: a password (InitiateAuth), then whatever the user
 * still owes (a new password, a TOTP code, setting TOTP up) as challenges answered with
 * RespondToAuthChallenge, then tokens; a refresh token buys new tokens until it is revoked.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import {
  type ChallengeSession,
  fields,
  type IdentityContext,
  type PoolAccess,
  parseInput,
  poolOfClient,
} from "./context.ts";
import { CognitoError, invalidParameter, notAuthorized } from "./errors.ts";
import { afterFailure, afterRefusal, type FailedSignIns, lockedOut, standing } from "./lockout.ts";
import { closeSession, openSession, sessionOf } from "./sessions.ts";
import { checkPasswordPolicy, hashPassword, passwordMatches, type StoredUser, userNamed } from "./store.ts";
import { issueTokens } from "./tokens.ts";
import { totpMatches } from "./totp.ts";

/** The deployed console client's: a working day. */
const REFRESH_TOKEN_MS = 12 * 3600_000;
const TEMPORARY_PASSWORD_MS = 7 * 24 * 3600_000;

type Challenge = ChallengeSession["challenge"];

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

function required(parameters: Record<string, string>, name: string): string {
  const value = parameters[name];
  if (value === undefined) throw invalidParameter(`Missing required parameter ${name}`);
  return value;
}

/** A new sign-in: its refresh token, and the first tokens. */
async function signIn(context: IdentityContext, pool: PoolAccess, clientId: string, user: StoredUser) {
  const now = context.now();
  for (const [id, old] of Object.entries(pool.data.signIns)) {
    if (old.expiresAt <= now) delete pool.data.signIns[id];
  }
  const refreshToken = randomBytes(96).toString("base64url");
  const originJti = randomUUID();
  const authTime = Math.floor(now / 1000);
  pool.data.signIns[originJti] = {
    username: user.username,
    clientId,
    refreshHash: sha256(refreshToken),
    authTime,
    expiresAt: now + REFRESH_TOKEN_MS,
    revoked: false,
  };
  context.store.save();
  const tokens = await issueTokens(context, pool.config, user, { originJti, clientId, authTime });
  return { ChallengeParameters: {}, AuthenticationResult: { ...tokens, RefreshToken: refreshToken } };
}

function challenge(context: IdentityContext, pool: PoolAccess, clientId: string, user: StoredUser, name: Challenge) {
  const parameters: Record<Challenge, Record<string, string>> = {
    NEW_PASSWORD_REQUIRED: {
      USER_ID_FOR_SRP: user.username,
      requiredAttributes: "[]",
      userAttributes: JSON.stringify(user.attributes),
    },
    SOFTWARE_TOKEN_MFA: { USER_ID_FOR_SRP: user.username },
    MFA_SETUP: { MFAS_CAN_SETUP: JSON.stringify(["SOFTWARE_TOKEN_MFA"]) },
  };
  const Session = openSession(context, {
    challenge: name,
    poolId: pool.config.id,
    clientId,
    username: user.username,
  });
  return { ChallengeName: name, Session, ChallengeParameters: parameters[name] };
}

/** What a user who has given a valid, permanent password still owes before getting tokens. */
function afterPassword(context: IdentityContext, pool: PoolAccess, clientId: string, user: StoredUser) {
  if (pool.config.mfa !== "off" && user.totpSecret) {
    return challenge(context, pool, clientId, user, "SOFTWARE_TOKEN_MFA");
  }
  if (pool.config.mfa === "required") return challenge(context, pool, clientId, user, "MFA_SETUP");
  return signIn(context, pool, clientId, user);
}

/**
 * Where the wrong passwords given for a username are kept: with the user (in the store, so a
 * restart keeps a lockout), or for a username nobody has, in memory.
 */
function failuresOf(context: IdentityContext, pool: PoolAccess, username: string, user: StoredUser | undefined) {
  const key = `${pool.config.id}/${username.toLowerCase()}`;
  return {
    get: () => (user ? user.failedSignIns : context.unknownSignIns.get(key)),
    set(record: FailedSignIns | undefined) {
      if (user) {
        user.failedSignIns = record;
        context.store.save();
        return;
      }
      const now = context.now();
      for (const [other, kept] of context.unknownSignIns) {
        if (!standing(kept, now)) context.unknownSignIns.delete(other);
      }
      if (record) context.unknownSignIns.set(key, record);
      else context.unknownSignIns.delete(key);
    },
  };
}

async function passwordAuth(
  context: IdentityContext,
  pool: PoolAccess,
  clientId: string,
  parameters: Record<string, string>,
) {
  const username = required(parameters, "USERNAME");
  const password = required(parameters, "PASSWORD");
  const user = userNamed(pool.data, username);
  const failures = failuresOf(context, pool, username, user);
  const now = context.now();
  const record = standing(failures.get(), now);
  if (record && lockedOut(record, now)) {
    failures.set(afterRefusal(record, now));
    throw notAuthorized("Password attempts exceeded");
  }
  // Counted as a failure before the password is checked, so attempts made at once count one by
  // one and meet the lockout they lead to; the right password takes the count away again.
  failures.set(afterFailure(record, now));
  // An unknown username takes the path of a wrong password, hash included, and gets its answer,
  // as with prevent-user-existence-errors: neither the answer nor its time tells who exists.
  const matches = await passwordMatches(password, user?.passwordHash ?? context.dummyPasswordHash);
  if (!user || !matches) throw notAuthorized("Incorrect username or password.");
  failures.set(undefined);
  if (!user.enabled) throw notAuthorized("User is disabled.");
  if (user.status === "CONFIRMED") return afterPassword(context, pool, clientId, user);
  if (context.now() - user.passwordSetAt > TEMPORARY_PASSWORD_MS) {
    throw notAuthorized("Temporary password has expired and must be reset by an administrator.");
  }
  return challenge(context, pool, clientId, user, "NEW_PASSWORD_REQUIRED");
}

async function refreshAuth(
  context: IdentityContext,
  pool: PoolAccess,
  clientId: string,
  parameters: Record<string, string>,
) {
  const hash = sha256(required(parameters, "REFRESH_TOKEN"));
  const found = Object.entries(pool.data.signIns).find(
    ([, origin]) => origin.refreshHash === hash && origin.clientId === clientId,
  );
  const user = found && userNamed(pool.data, found[1].username);
  if (!found || !user) throw notAuthorized("Invalid Refresh Token");
  const [originJti, origin] = found;
  if (!user.enabled) throw notAuthorized("User is disabled.");
  if (origin.revoked) throw notAuthorized("Refresh Token has been revoked");
  if (origin.expiresAt <= context.now()) throw notAuthorized("Refresh Token has expired");
  // No new refresh token: Cognito hands one out only with rotation, which the pools do not enable.
  const tokens = await issueTokens(context, pool.config, user, { originJti, clientId, authTime: origin.authTime });
  return { ChallengeParameters: {}, AuthenticationResult: tokens };
}

const initiateAuthInput = z.strictObject({
  AuthFlow: z.string(),
  ClientId: fields.clientId,
  AuthParameters: z.record(z.string(), z.string()).optional(),
  ...fields.callerExtras,
});

export async function initiateAuth(context: IdentityContext, input: unknown) {
  const { AuthFlow, ClientId, AuthParameters = {} } = parseInput(initiateAuthInput, input);
  const pool = poolOfClient(context, ClientId);
  if (AuthFlow === "USER_PASSWORD_AUTH") return passwordAuth(context, pool, ClientId, AuthParameters);
  if (AuthFlow === "REFRESH_TOKEN_AUTH") return refreshAuth(context, pool, ClientId, AuthParameters);
  throw invalidParameter(`${AuthFlow} flow not enabled for this client`);
}

const respondInput = z.strictObject({
  ClientId: fields.clientId,
  ChallengeName: z.enum(["NEW_PASSWORD_REQUIRED", "SOFTWARE_TOKEN_MFA", "MFA_SETUP"]),
  Session: fields.session,
  ChallengeResponses: z.record(z.string(), z.string()).optional(),
  ...fields.callerExtras,
});

export async function respondToAuthChallenge(context: IdentityContext, input: unknown) {
  const { ClientId, ChallengeName, Session, ChallengeResponses = {} } = parseInput(respondInput, input);
  const pool = poolOfClient(context, ClientId);
  const session = sessionOf(context, Session, ChallengeName);
  const user = userNamed(pool.data, session.username);
  if (
    session.clientId !== ClientId ||
    required(ChallengeResponses, "USERNAME").toLowerCase() !== session.username.toLowerCase() ||
    !user
  ) {
    throw notAuthorized("Invalid session for the user.");
  }
  if (!user.enabled) throw notAuthorized("User is disabled.");
  switch (ChallengeName) {
    case "NEW_PASSWORD_REQUIRED": {
      const password = required(ChallengeResponses, "NEW_PASSWORD");
      checkPasswordPolicy(password);
      closeSession(context, Session);
      Object.assign(user, {
        passwordHash: await hashPassword(password),
        passwordSetAt: context.now(),
        status: "CONFIRMED",
        modifiedAt: context.now(),
      });
      context.store.save();
      return afterPassword(context, pool, ClientId, user);
    }
    case "SOFTWARE_TOKEN_MFA": {
      const code = required(ChallengeResponses, "SOFTWARE_TOKEN_MFA_CODE");
      if (!user.totpSecret || !totpMatches(user.totpSecret, code, context.now())) {
        throw new CognitoError("CodeMismatchException", "Invalid code received for user");
      }
      closeSession(context, Session);
      return signIn(context, pool, ClientId, user);
    }
    case "MFA_SETUP": {
      if (!session.verified) throw invalidParameter("Software token MFA has not been verified for this session.");
      closeSession(context, Session);
      return signIn(context, pool, ClientId, user);
    }
  }
}
