import { cognitoTokenVerifier } from "../adapters/cognito-token-verifier.ts";
import { readSettings } from "../declarations/settings.ts";
import type { AccessTokenVerifier, UserPool } from "../ports/identity.ts";
import type { FunctionConfig } from "./config.ts";

/** The settings that name each user pool and the web page's client of it. */
const POOL_SETTINGS = {
  staff: { userPoolId: "STAFF_USER_POOL_ID", clientId: "STAFF_CLIENT_ID" },
  portal: { userPoolId: "PORTAL_USER_POOL_ID", clientId: "PORTAL_CLIENT_ID" },
} as const;

/** A pool's access tokens, checked against the pool (the local identity endpoint when one is set). */
export function poolTokens(config: FunctionConfig, pool: UserPool): AccessTokenVerifier {
  const { IDENTITY_ENDPOINT } = readSettings(["IDENTITY_ENDPOINT"]);
  return cognitoTokenVerifier({
    pool,
    userPoolId: config.setting(POOL_SETTINGS[pool].userPoolId),
    clientId: config.setting(POOL_SETTINGS[pool].clientId),
    endpoint: IDENTITY_ENDPOINT,
  });
}
