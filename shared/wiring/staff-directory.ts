import type { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { cognitoStaffDirectory } from "../adapters/cognito-staff-directory.ts";
import type { StaffDirectory } from "../ports/identity.ts";

/** The staff of the pool `userPoolId`, managed through `cognito`. */
export const staffOf = (cognito: CognitoIdentityProviderClient, userPoolId: string): StaffDirectory =>
  cognitoStaffDirectory(cognito, userPoolId);
