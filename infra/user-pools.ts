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

/** What a web page's tokens live for: an access token an hour, a session a working day. */
const ACCESS_TOKEN_MINUTES = 60;
const SESSION_HOURS = 12;

interface SignInPoolProps {
  config: EnvironmentConfig;
  /** Who the pool's users are, in group descriptions. */
  people: string;
  /** `required`: TOTP at every sign-in; `optional`: each user's choice. */
  mfa: "required" | "optional";
  groups: readonly string[];
  /** The construct id of the web page's client. */
  clientId: string;
  /** Why the pool runs without the Plus plan's threat protection (cdk-nag's COG8). */
  noThreatProtection: string;
}

/**
 * A Cognito user pool whose users are created by an admin (the ops command, or an owner
 * through the portal), who sign in by username with a password (and a TOTP code when asked),
 * with the groups its routes name; and the client of the web page that signs them in.
 */
class SignInPool extends Construct {
  readonly userPool: UserPool;
  readonly pageClient: UserPoolClient;

  constructor(scope: Construct, id: string, props: SignInPoolProps) {
    super(scope, id);
    const { config } = props;
    this.userPool = new UserPool(this, "Pool", {
      selfSignUpEnabled: false,
      signInAliases: { username: true },
      signInCaseSensitive: false,
      mfa: props.mfa === "required" ? Mfa.REQUIRED : Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      // A user who lost their password gets a code by email; nobody recovers by phone.
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({ id: "AwsSolutions-COG8", reason: props.noThreatProtection });
    for (const group of props.groups) {
      this.userPool.addGroup(`${constructId(group)}Group`, {
        groupName: group,
        description: `${props.people} ${group} (${config.environment})`,
      });
    }
    // A browser page cannot keep a secret, so the client has none; the password flow is the
    // one the page speaks, and refresh keeps a session for a working day.
    this.pageClient = this.userPool.addClient(props.clientId, {
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

/** The environment's staff: TOTP at every sign-in, in the groups the backoffice routes name; the review console's client. */
export class StaffIdentity extends SignInPool {
  constructor(scope: Construct, id: string, config: EnvironmentConfig) {
    super(scope, id, {
      config,
      people: "Staff",
      mfa: "required",
      groups: STAFF_GROUPS,
      clientId: "ConsoleClient",
      noThreatProtection:
        "Threat protection needs the Plus feature plan, a paid plan decision; staff accounts are admin-created, need TOTP at every sign-in and a 12-character password",
    });
  }
}

/**
 * The environment's customers' people (portal logins): MFA their choice, no groups (a user's
 * organisation and role live in their membership); the portal page's client.
 */
export class CustomerIdentity extends SignInPool {
  constructor(scope: Construct, id: string, config: EnvironmentConfig) {
    super(scope, id, {
      config,
      people: "Customer",
      mfa: "optional",
      groups: [],
      clientId: "PortalClient",
      noThreatProtection:
        "Threat protection needs the Plus feature plan, a paid plan decision; portal accounts are created by an operator or their organisation's owner, with a 12-character password",
    });
    Validations.of(this.userPool).acknowledge({
      id: "AwsSolutions-COG2",
      reason:
        "MFA is offered (TOTP) and each customer user chooses it; a portal login reaches only its organisation's apps and never an API key, which is shown once and only at creation",
    });
  }
}
