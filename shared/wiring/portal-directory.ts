import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { cognitoPortalDirectory } from "../adapters/cognito-portal-directory.ts";
import { readSettings } from "../declarations/settings.ts";
import type { PortalDirectory } from "../ports/identity.ts";
import type { FunctionConfig } from "./config.ts";

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
