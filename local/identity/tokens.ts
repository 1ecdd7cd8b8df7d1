/**
 * Tokens shaped as Cognito's: RS256 with a `kid` the pools' JWKS names, the issuer in Cognito's
 * form (the production verifier derives it from the pool id), and the claims Cognito sets.
 * One key signs for every pool of the endpoint, so a token of another pool differs by its
 * issuer alone, as it would between two pools of one region.
 */
import { randomUUID } from "node:crypto";
import {
  type CryptoKey,
  calculateJwkThumbprint,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import { z } from "zod";
import type { IdentityContext, PoolAccess, PoolConfig } from "./context.ts";
import { CognitoError, notAuthorized } from "./errors.ts";
import { type IdentityStore, type StoredUser, userNamed } from "./store.ts";

/** Cognito's default, which the deployed clients keep. */
export const ACCESS_TOKEN_SECONDS = 3600;

export interface Signer {
  jwks: { keys: JWK[] };
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  kid: string;
}

/** The store's key, or a new one kept in the store: tokens issued before a restart stay valid. */
export async function loadSigner(store: IdentityStore): Promise<Signer> {
  let stored = store.state.key as JWK | undefined;
  if (!stored) {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    stored = await exportJWK(privateKey);
    stored.kid = await calculateJwkThumbprint(stored);
    store.state.key = stored;
    store.save();
  }
  const kid = String(stored.kid);
  const publicJwk: JWK = { kty: "RSA", n: stored.n, e: stored.e, alg: "RS256", kid, use: "sig" };
  return {
    jwks: { keys: [publicJwk] },
    privateKey: (await importJWK(stored, "RS256")) as CryptoKey,
    publicKey: (await importJWK(publicJwk, "RS256")) as CryptoKey,
    kid,
  };
}

export function issuerOf(poolId: string): string {
  return `https://cognito-idp.${poolId.split("_")[0]}.amazonaws.com/${poolId}`;
}

/** What a sign-in's tokens share: the refresh token's `origin_jti`, and when the password was given. */
export interface Origin {
  originJti: string;
  clientId: string;
  authTime: number;
}

/** An access token and an id token for `user`, as InitiateAuth's `AuthenticationResult` holds them. */
export async function issueTokens(context: IdentityContext, pool: PoolConfig, user: StoredUser, origin: Origin) {
  const iat = Math.floor(context.now() / 1000);
  const exp = iat + ACCESS_TOKEN_SECONDS;
  const shared = {
    sub: user.sub,
    // Cognito leaves the claim out for a user in no group.
    ...(user.groups.length > 0 ? { "cognito:groups": user.groups } : {}),
    iss: issuerOf(pool.id),
    origin_jti: origin.originJti,
    event_id: randomUUID(),
    auth_time: origin.authTime,
    iat,
    exp,
  };
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT({ ...shared, ...claims, jti: randomUUID() })
      .setProtectedHeader({ alg: "RS256", kid: context.signer.kid })
      .sign(context.signer.privateKey);
  return {
    AccessToken: await sign({
      client_id: origin.clientId,
      token_use: "access",
      scope: "aws.cognito.signin.user.admin",
      username: user.username,
    }),
    IdToken: await sign({
      aud: origin.clientId,
      token_use: "id",
      "cognito:username": user.username,
      ...(user.attributes.email ? { email: user.attributes.email } : {}),
    }),
    ExpiresIn: ACCESS_TOKEN_SECONDS,
    TokenType: "Bearer",
  };
}

const accessClaims = z.object({
  iss: z.string(),
  sub: z.string(),
  client_id: z.string(),
  origin_jti: z.string(),
  token_use: z.literal("access"),
  username: z.string(),
});

/**
 * The user an access token speaks for, checked as Cognito checks it on GetUser: signature and
 * expiry, then that the user still exists and is enabled, and the sign-in it came from is not revoked.
 */
export async function userOfAccessToken(
  context: IdentityContext,
  token: string,
): Promise<{ pool: PoolAccess; user: StoredUser }> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, context.signer.publicKey, {
      algorithms: ["RS256"],
      currentDate: new Date(context.now()),
    }));
  } catch (error) {
    throw notAuthorized(error instanceof errors.JWTExpired ? "Access Token has expired" : "Invalid Access Token");
  }
  const claims = accessClaims.safeParse(payload);
  const config = claims.success
    ? [...context.pools.values()].find((candidate) => issuerOf(candidate.id) === claims.data.iss)
    : undefined;
  if (!claims.success || !config?.clientIds.includes(claims.data.client_id)) {
    throw notAuthorized("Invalid Access Token");
  }
  const data = context.store.pool(config.id);
  const user = userNamed(data, claims.data.username);
  // Deleted (a user of the same name made since is someone else, with another `sub`).
  if (!user || user.sub !== claims.data.sub) throw new CognitoError("UserNotFoundException", "User does not exist.");
  if (!user.enabled) throw notAuthorized("User is disabled.");
  const origin = data.signIns[claims.data.origin_jti];
  // Signed out everywhere, or disabled since: the token's signature still holds, but Cognito
  // refuses it on its own API, as the service's verifier asks it to.
  if (!origin || origin.revoked) throw notAuthorized("Access Token has been revoked");
  return { pool: { config, data }, user };
}
