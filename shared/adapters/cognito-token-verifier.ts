/**
 * A pool's access tokens, checked as the production authorizer must: aws-jwt-verify for the
 * signature, issuer, expiry, token use and client, then Cognito's GetUser with the token, which
 * refuses one that was revoked (global sign-out) or whose user is disabled: a signature alone
 * cannot tell.
 */
import {
  CognitoIdentityProviderClient,
  GetUserCommand,
  NotAuthorizedException,
  UserNotFoundException,
} from "@aws-sdk/client-cognito-identity-provider";
import { CognitoJwtVerifier } from "aws-jwt-verify";
import {
  FetchError,
  JwkInvalidKtyError,
  JwkInvalidUseError,
  JwksValidationError,
  JwkValidationError,
  JwtBaseError,
  NonRetryableFetchError,
} from "aws-jwt-verify/error";
import type { Fetcher } from "aws-jwt-verify/https";
import { SimpleJwksCache } from "aws-jwt-verify/jwk";
import type { AccessTokenVerifier, UserPool } from "../ports/identity.ts";

export interface CognitoTokenVerifierOptions {
  pool: UserPool;
  userPoolId: string;
  clientId: string;
  /** A local identity endpoint serving the pool's API and JWKS in Cognito's stead; none in AWS. */
  endpoint?: string;
}

const JWKS_TIMEOUT_MS = 3000;

/**
 * Fetches the JWKS that aws-jwt-verify asks for at Cognito's address (the issuer's, which tokens
 * keep locally too) from the local endpoint instead, over plain HTTP, which its own fetcher refuses.
 */
function localJwksFetcher(endpoint: string): Fetcher {
  const base = endpoint.replace(/\/+$/, "");
  return {
    async fetch(uri: string): Promise<ArrayBuffer> {
      const local = `${base}${new URL(uri).pathname}`;
      let response: Response;
      try {
        response = await fetch(local, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
      } catch (error) {
        throw new FetchError(local, error instanceof Error ? error.message : String(error));
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new NonRetryableFetchError(local, `Status code is ${response.status}, expected 200`);
      }
      return response.arrayBuffer();
    },
  };
}

/** Errors that say the pool's keys could not be had, rather than that the token is bad. */
const KEY_ERRORS = [FetchError, JwksValidationError, JwkValidationError, JwkInvalidUseError, JwkInvalidKtyError];

function isTokenFault(error: unknown): boolean {
  return error instanceof JwtBaseError && !KEY_ERRORS.some((type) => error instanceof type);
}

export function cognitoTokenVerifier(options: CognitoTokenVerifierOptions): AccessTokenVerifier {
  const jwt = CognitoJwtVerifier.create(
    { userPoolId: options.userPoolId, tokenUse: "access", clientId: options.clientId },
    options.endpoint ? { jwksCache: new SimpleJwksCache({ fetcher: localJwksFetcher(options.endpoint) }) } : undefined,
  );
  const cognito = new CognitoIdentityProviderClient({
    region: options.userPoolId.split("_")[0],
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  });
  return {
    async verify(token) {
      let claims: Awaited<ReturnType<typeof jwt.verify>>;
      try {
        claims = await jwt.verify(token);
      } catch (error) {
        // Expired, another issuer or client, an id token, a key not in the JWKS, not a JWT at all.
        if (isTokenFault(error)) return undefined;
        throw error;
      }
      try {
        await cognito.send(new GetUserCommand({ AccessToken: token }));
      } catch (error) {
        // Revoked, or its user disabled; a deleted user's token is no more alive.
        if (error instanceof NotAuthorizedException || error instanceof UserNotFoundException) return undefined;
        throw error;
      }
      return {
        pool: options.pool,
        sub: claims.sub,
        username: claims.username,
        groups: claims["cognito:groups"] ?? [],
      };
    },
  };
}
