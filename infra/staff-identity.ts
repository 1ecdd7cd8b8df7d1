import { Duration, Validations } from "aws-cdk-lib";
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
} from "aws-cdk-lib/aws-cognito";
import { Construct } from "constructs";
import { STAFF_GROUPS } from "#shared/domain/staff";
import { constructId, type EnvironmentConfig } from "./config.ts";

/** What the review console's tokens live for: an access token an hour, a session a working day. */
const ACCESS_TOKEN_MINUTES = 60;
const SESSION_HOURS = 12;

/**
 * The environment's staff: a Cognito user pool whose users only an admin creates (the ops
 * command), who sign in by username with a password and a TOTP code, in the groups the
 * backoffice routes name; and the review console's client of it.
 */
export class StaffIdentity extends Construct {
  readonly userPool: UserPool;
  readonly consoleClient: UserPoolClient;

  constructor(scope: Construct, id: string, config: EnvironmentConfig) {
    super(scope, id);
    this.userPool = new UserPool(this, "Pool", {
      selfSignUpEnabled: false,
      signInAliases: { username: true },
      signInCaseSensitive: false,
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      // A staff member who lost their password gets a code by email; nobody recovers by phone.
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({
      id: "AwsSolutions-COG8",
      reason:
        "Threat protection needs the Plus feature plan, a paid plan decision; staff accounts are admin-created, need TOTP at every sign-in and a 12-character password",
    });
    for (const group of STAFF_GROUPS) {
      this.userPool.addGroup(`${constructId(group)}Group`, {
        groupName: group,
        description: `Staff ${group} (${config.environment})`,
      });
    }
    // A browser page cannot keep a secret, so the client has none; the password flow is the
    // one the console speaks, and refresh keeps a session for a working day.
    this.consoleClient = this.userPool.addClient("ConsoleClient", {
      authFlows: { userPassword: true },
      generateSecret: false,
      disableOAuth: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      idTokenValidity: Duration.minutes(ACCESS_TOKEN_MINUTES),
      refreshTokenValidity: Duration.hours(SESSION_HOURS),
    });
  }
}
