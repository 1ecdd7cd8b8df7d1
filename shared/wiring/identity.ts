import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { cognitoPortalDirectory } from "../adapters/cognito-portal-directory.ts";
import { cognitoStaffDirectory } from "../adapters/cognito-staff-directory.ts";
import { cognitoTokenVerifier } from "../adapters/cognito-token-verifier.ts";
import { readSettings } from "../declarations/settings.ts";
import type { AccessTokenVerifier, PortalDirectory, StaffDirectory, UserPool } from "../ports/identity.ts";
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

/** The staff of the pool `userPoolId`, managed through `cognito`. */
export const staffOf = (cognito: CognitoIdentityProviderClient, userPoolId: string): StaffDirectory =>
  cognitoStaffDirectory(cognito, userPoolId);

/** The customers' people in the pool `userPoolId`, managed through `cognito`. */
export const peopleOf = (cognito: CognitoIdentityProviderClient, userPoolId: string): PortalDirectory =>
  cognitoPortalDirectory(cognito, userPoolId);

/** The customer pool's admin API: owners invite and remove their people. */
export function portalUsers(config: FunctionConfig): PortalDirectory {
  const { IDENTITY_ENDPOINT } = readSettings(["IDENTITY_ENDPOINT"]);
  return peopleOf(
    new CognitoIdentityProviderClient({ ...(IDENTITY_ENDPOINT ? { endpoint: IDENTITY_ENDPOINT } : {}) }),
    config.setting("PORTAL_USER_POOL_ID"),
  );
}
