import { cognitoTokenVerifier } from "../adapters/cognito-token-verifier.ts";
import { readSettings } from "../declarations/settings.ts";
import type { AccessTokenVerifier } from "../ports/identity.ts";
import type { FunctionConfig } from "./config.ts";

/** The staff pool's access tokens, checked against the pool (the local identity endpoint when one is set). */
export function staffTokens(config: FunctionConfig): AccessTokenVerifier {
  const { IDENTITY_ENDPOINT } = readSettings(["IDENTITY_ENDPOINT"]);
  return cognitoTokenVerifier({
    pool: "staff",
    userPoolId: config.setting("STAFF_USER_POOL_ID"),
    clientId: config.setting("STAFF_CLIENT_ID"),
    endpoint: IDENTITY_ENDPOINT,
  });
}
