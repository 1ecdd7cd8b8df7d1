import { CfnOutput, Duration, Stack, type StackProps, Validations } from "aws-cdk-lib";
import { type RestApi, UsagePlan } from "aws-cdk-lib/aws-apigateway";
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from "aws-cdk-lib/aws-dynamodb";
import { AccountRootPrincipal, AnyPrincipal, Effect, PolicyDocument, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { Key, KeySpec, KeyUsage } from "aws-cdk-lib/aws-kms";
import { FunctionUrlAuthType } from "aws-cdk-lib/aws-lambda";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct, IDependable } from "constructs";
import type { FunctionDefinition, TableSetting } from "#shared/declarations/function-definition";
import { FUNCTIONS } from "#shared/declarations/functions";
import { OPERATOR_TRAIL } from "#shared/declarations/operators";
import { DELIVERY_QUEUE, ISSUER_QUEUE } from "#shared/declarations/queues";
import { APIS, APP_THROTTLING, type ApiDefinition, type ApiName } from "#shared/declarations/routes";
import type { SettingName } from "#shared/declarations/settings";
import { TABLES, type TableDefinition } from "#shared/declarations/tables";
import type { EdevletProtocol } from "#shared/domain/issuer";
import { documentKey } from "#shared/domain/verification";
import { ApiAlarms, type WatchedApi } from "./alarms.ts";
import { ApiFunction } from "./api-function.ts";
import { constructId, type EnvironmentConfig } from "./config.ts";
import { sealingKeyPolicy } from "./function-policy.ts";
import { OperatorRole } from "./operator-role.ts";
import { OperatorTrail } from "./operator-trail.ts";
import { Pipeline, QueueWithFailures } from "./pipeline.ts";
import { API_PARTS, declaredApi } from "./rest-api.ts";
import { CustomerIdentity, StaffIdentity } from "./user-pools.ts";
import { EdgeAcl } from "./web-acl.ts";

/**
 * Which issuer processing asks: e-Devlet itself by `protocol`, the stack's own e-Devlet
 * simulator (sandbox only) the same way, an integration on the issuer-lookup contract, or none.
 */
export type IssuerChoice =
  | { kind: "edevlet" | "simulator"; protocol: EdevletProtocol }
  | { kind: "lookup"; url: string; secretArn: string }
  | { kind: "none" };

/** The settings every function that reaches the issuer reads, for `choice`. */
function issuerSettings(choice: IssuerChoice, config: EnvironmentConfig): Partial<Record<SettingName, string>> {
  return {
    ISSUER: choice.kind === "simulator" ? "edevlet" : choice.kind,
    ISSUER_RETRY_WINDOW_S: String(config.issuer.retryWindowSeconds),
    ...(choice.kind === "edevlet" || choice.kind === "simulator" ? { EDEVLET_PROTOCOL: choice.protocol } : {}),
    ...(choice.kind === "lookup" ? { AUTHORITY_URL: choice.url } : {}),
  };
}

/** An API's declaration, seen as any API's: what it may declare, not only what it does. */
const definitionOf = (name: ApiName): ApiDefinition => APIS[name];

export interface VerificationApiStackProps extends StackProps {
  config: EnvironmentConfig;
  /** The issuer processing asks (`-c issuer=`, see `infra/define-app.ts`). */
  issuer: IssuerChoice;
  /**
   * Upgrading a stack deployed before some indexes existed: only the indexes added in this step
   * or before (`addedInStep`), one more per table per deploy. Absent: every index.
   */
  indexStep?: number;
  /**
   * `prepare`: the usage plan and new apps' keys in it, but no request needs a key yet (the first
   * deploy onto a stack with apps, before `ops apps sync-limits`). Absent: each app is held to its rate.
   */
  appLimits?: "prepare";
}

/** What the operators' role is granted of the stack's resources. */
interface OperatorGrants {
  tables: Map<SettingName, { table: Table; definition: TableDefinition }>;
  uploads: Bucket;
  accessLogs: Bucket;
  keys: { secretsKey: Secret; sealingKey: Key; auditSealingKey: Key };
  userPoolArns: string[];
  usagePlanId: string;
}

/** What every bucket of the stack is: private, TLS only, encrypted, owned by the account. */
function privateBucket(config: EnvironmentConfig) {
  return {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: BucketEncryption.S3_MANAGED,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: config.removalPolicy,
  };
}

/** Characters of key material that seal webhook signing secrets (`SecretBox`). */
const SECRETS_KEY_LENGTH = 64;

/**
 * Actions no principal may take on an append-only table: anything that changes or removes an
 * item. A PartiQL INSERT is a put, so it is refused too: the one way in is PutItem, whose
 * condition (the adapter's) keeps it from replacing a record.
 */
const APPEND_ONLY_DENIED_ACTIONS = [
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
  "dynamodb:BatchWriteItem",
  "dynamodb:PartiQLInsert",
  "dynamodb:PartiQLUpdate",
  "dynamodb:PartiQLDelete",
];

/**
 * One environment of the verification API: each REST API of the shared declarations with its
 * authorizer, one function per shared declaration, the shared tables, the uploads bucket, the
 * sealing key, the staff and customer user pools and the alarms. Functions, routes and tables come from
 * `shared/`, so the local runtime serves the same ones.
 */
export class VerificationApiStack extends Stack {
  readonly apis = new Map<ApiName, RestApi>();
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, props: VerificationApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const environment = config.environment;

    const tables = this.tables(config, props.indexStep);
    const accessLogs = this.accessLogsBucket(config);
    const uploads = this.uploadsBucket(config, accessLogs);
    new CfnOutput(this, "UploadsBucketName", {
      value: uploads.bucketName,
      description: `Uploaded documents (${environment})`,
    });
    const keys = this.keys(config);
    const usagePlan = this.appRequests(config);
    const deliveries = new QueueWithFailures(this, DELIVERY_QUEUE.id, config, DELIVERY_QUEUE);
    const lookups = new QueueWithFailures(this, ISSUER_QUEUE.id, config, ISSUER_QUEUE);
    const { staff, customers } = this.identities(config);

    const resources = {
      environment: config,
      tables,
      uploads,
      ...keys,
      usagePlanId: usagePlan.usagePlanId,
      deliveryQueue: deliveries.queue,
      issuerQueue: lookups.queue,
      issuer: issuerSettings(props.issuer, config),
      pools: {
        staff: { userPoolId: staff.userPool.userPoolId, clientId: staff.pageClient.userPoolClientId },
        portal: {
          userPoolId: customers.userPool.userPoolId,
          clientId: customers.pageClient.userPoolClientId,
          userPoolArn: customers.userPool.userPoolArn,
        },
      },
    };
    const entries = (Object.entries(FUNCTIONS) as [keyof typeof FUNCTIONS, FunctionDefinition][]).filter(
      ([, definition]) => definition.deployedIn?.includes(environment) ?? true,
    );
    for (const [name, definition] of entries) {
      const fn = new ApiFunction(this, `${constructId(name)}Function`, { name, definition, resources });
      this.functions.set(name, fn.function);
    }
    this.connectIssuer(props.issuer, config, entries);

    const watched = this.declaredApis(config, usagePlan, uploads, props.appLimits !== "prepare");
    new EdgeAcl(this, "Edge", {
      environment,
      stages: [...this.apis.values()].map((api) => api.deploymentStage),
      namePrefix: this.stackName,
    });
    const alarms = new ApiAlarms(this, "Alarms", {
      environment: config,
      apis: watched,
      functions: this.functions,
      authorizerNames: new Set(Object.values(APIS).map((api) => api.authorizer.function)),
    });

    const verifications = tables.get("VERIFICATIONS_TABLE");
    if (!verifications) throw new Error("No verifications table in shared/declarations/tables.ts");
    new Pipeline(this, "Pipeline", {
      environment: config,
      verifications: verifications.table,
      consumer: this.functionNamed("on-verification-change"),
      deliveries: { queues: deliveries, reader: this.functionNamed(DELIVERY_QUEUE.consumer) },
      lookups: { queues: lookups, reader: this.functionNamed(ISSUER_QUEUE.consumer) },
      tick: this.functionNamed("tick"),
      sealer: this.functionNamed("seal-audit"),
      alarms,
    });
    new CfnOutput(this, "AlarmTopicArn", { value: alarms.topic.topicArn, description: "Subscribe operators here" });

    this.operators(config, {
      tables,
      uploads,
      accessLogs,
      keys,
      userPoolArns: [staff.userPool.userPoolArn, customers.userPool.userPoolArn],
      usagePlanId: usagePlan.usagePlanId,
    });
  }

  /** Every shared table, with its name as an output. */
  private tables(
    config: EnvironmentConfig,
    indexStep: number | undefined,
  ): Map<SettingName, { table: Table; definition: TableDefinition }> {
    const tables = new Map<SettingName, { table: Table; definition: TableDefinition }>();
    for (const definition of TABLES) {
      const table = this.table(definition, config, indexStep);
      tables.set(definition.setting, { table, definition });
      new CfnOutput(this, `${definition.id}TableName`, {
        value: table.tableName,
        description: `The ${definition.id.toLowerCase()} table of ${config.environment}`,
      });
    }
    return tables;
  }

  /** The keys that seal, digest and sign: each role that uses one is named in its policy where it is made. */
  private keys(config: EnvironmentConfig) {
    const environment = config.environment;
    const secretsKey = new Secret(this, "SecretsKey", {
      description: `Key material that seals webhook signing secrets at rest (${environment})`,
      generateSecretString: { passwordLength: SECRETS_KEY_LENGTH, excludePunctuation: true, includeSpace: false },
      removalPolicy: config.removalPolicy,
    });
    Validations.of(secretsKey).acknowledge({
      id: "AwsSolutions-SMG4",
      reason:
        "The key seals webhook secrets stored in the apps table; rotating it needs a re-seal of every stored secret, an operator procedure rather than a rotation Lambda",
    });
    new CfnOutput(this, "SecretsKeyArn", {
      value: secretsKey.secretArn,
      description: "The retired sealing key material: opens webhook secrets sealed before KMS",
    });
    // The account administers the key but uses it not at all; each role that seals or opens is
    // named in the key's policy where it is made (infra/api-function.ts, infra/operator-role.ts).
    const sealingKey = new Key(this, "SealingKey", {
      description: `Seals webhook signing secrets, each with its app id as encryption context (${environment})`,
      enableKeyRotation: true,
      policy: sealingKeyPolicy(new AccountRootPrincipal()),
      removalPolicy: config.removalPolicy,
    });
    new CfnOutput(this, "SealingKeyArn", {
      value: sealingKey.keyArn,
      description: "The KMS key that seals webhook secrets (operators may encrypt only)",
    });

    // Seals the identity number a verification by its keys is created with, until its lookup
    // answers; the roles that seal and open are named in its policy (infra/api-function.ts).
    const identityKey = new Key(this, "IdentityKey", {
      description: `Seals identity numbers sent on create, each with its app and verification as encryption context (${environment})`,
      enableKeyRotation: true,
      policy: sealingKeyPolicy(new AccountRootPrincipal()),
      removalPolicy: config.removalPolicy,
    });

    // Expected identity numbers are kept as its HMAC; the material never leaves KMS. Each role
    // that digests is named in the key's policy where it is made (infra/api-function.ts).
    const subjectKey = new Key(this, "SubjectKey", {
      description: `Digests expected identity numbers (HMAC-SHA-256) until a verification is decided (${environment})`,
      keySpec: KeySpec.HMAC_256,
      keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
      policy: sealingKeyPolicy(new AccountRootPrincipal()),
      removalPolicy: config.removalPolicy,
    });

    // Signs the audit trail's digests: the private half never leaves KMS, only the sealer may sign
    // (infra/api-function.ts), operators read the public half to check (infra/operator-role.ts).
    const auditSealingKey = new Key(this, "AuditSealingKey", {
      description: `Signs the audit trail's digests (ECDSA P-256); only the sealer signs (${environment})`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      policy: sealingKeyPolicy(new AccountRootPrincipal()),
      removalPolicy: config.removalPolicy,
    });
    new CfnOutput(this, "AuditSealingKeyArn", {
      value: auditSealingKey.keyArn,
      description: "The KMS key the audit trail's digests are signed with: ops audit verify reads its public key",
    });

    return { secretsKey, sealingKey, identityKey, subjectKey, auditSealingKey };
  }

  /** Each app's own request rate: the authorizer names the app's key in it, and the public stage joins it. */
  private appRequests(config: EnvironmentConfig): UsagePlan {
    const environment = config.environment;
    const usagePlan = new UsagePlan(this, "AppRequests", {
      name: `${this.stackName}-apps`,
      description: `Each app's own request rate (${environment}): one API key per app, named by its app id`,
      throttle: APP_THROTTLING[environment],
    });
    new CfnOutput(this, "UsagePlanId", {
      value: usagePlan.usagePlanId,
      description: "Holds each app's request bucket: npm run ops -- apps sync-limits",
    });

    return usagePlan;
  }

  /** The staff and customer user pools, each with its page's client. */
  private identities(config: EnvironmentConfig) {
    const environment = config.environment;
    const staff = new StaffIdentity(this, "Staff", config);
    new CfnOutput(this, "StaffUserPoolId", {
      value: staff.userPool.userPoolId,
      description: `The staff user pool of ${environment}: ops staff add|disable|list`,
    });
    new CfnOutput(this, "StaffClientId", {
      value: staff.pageClient.userPoolClientId,
      description: "The review console's client of the staff user pool",
    });
    const customers = new CustomerIdentity(this, "Customers", config);
    new CfnOutput(this, "PortalUserPoolId", {
      value: customers.userPool.userPoolId,
      description: `The customer user pool of ${environment} (portal logins): ops orgs invite`,
    });
    new CfnOutput(this, "PortalClientId", {
      value: customers.pageClient.userPoolClientId,
      description: "The portal page's client of the customer user pool",
    });

    return { staff, customers };
  }

  /** Each declared REST API, with its base URL as an output: what the alarms watch of each. */
  private declaredApis(
    config: EnvironmentConfig,
    usagePlan: UsagePlan,
    uploads: Bucket,
    enforceAppLimits: boolean,
  ): WatchedApi[] {
    const environment = config.environment;
    const watched: WatchedApi[] = [];
    let accountLogging: IDependable | undefined;
    for (const name of Object.keys(APIS) as ApiName[]) {
      const built = declaredApi(this, name, {
        config,
        functionNamed: (functionName) => this.functionNamed(functionName),
        accountLogging,
        usagePlan,
        enforceAppLimits,
      });
      accountLogging ??= built.accountLogging;
      this.apis.set(name, built.api);
      const parts = API_PARTS[name];
      watched.push({
        stage: built.api.deploymentStage,
        accessLogs: built.accessLogs,
        idPrefix: parts.alarmPrefix,
        subject: parts.alarmSubject,
        authorizerTitle: parts.authorizerTitle,
        perApp: definitionOf(name).perApp !== undefined,
      });
      const origin = `https://${built.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}`;
      new CfnOutput(this, `${APIS[name].id}Url`, {
        // The base URL the contract's paths (/v1/..., /backoffice/..., /portal/...) are appended to: no trailing slash.
        value: `${origin}/${environment}`,
        description: `Base URL of the ${environment} ${parts.title}`,
      });
      // The review console reads the documents it shows (pdf.js renders their bytes) by their presigned links.
      if (name === "backoffice") uploads.addCorsRule({ allowedOrigins: [origin], allowedMethods: [HttpMethods.GET] });
    }

    return watched;
  }

  /** The operators' role, with exactly the ops command's access, and the trail of what they do. */
  private operators(config: EnvironmentConfig, granted: OperatorGrants): void {
    const environment = config.environment;
    const { tables, uploads, accessLogs, keys } = granted;
    const operators = new OperatorRole(this, "Operators", {
      environment,
      tables: new Map([...tables].map(([setting, entry]) => [setting as TableSetting, entry])),
      uploads,
      retiredSealingKey: keys.secretsKey,
      sealingKey: keys.sealingKey,
      auditSealingKey: keys.auditSealingKey,
      userPoolArns: granted.userPoolArns,
      usagePlanId: granted.usagePlanId,
    });
    new CfnOutput(this, "OperatorRoleArn", {
      value: operators.role.roleArn,
      description: "Assume with MFA to run npm run ops -- --env against this environment",
    });
    const recorded = new OperatorTrail(this, "OperatorTrail", {
      environment,
      operators: operators.role,
      tables: OPERATOR_TRAIL.tables.map((setting) => {
        const entry = tables.get(setting);
        if (!entry) throw new Error(`The operator trail names ${setting}, which is not a table`);
        return entry.table;
      }),
      accessLogs,
      removalPolicy: config.removalPolicy,
    });
    new CfnOutput(this, "OperatorTrailBucketName", {
      value: recorded.bucket.bucketName,
      description:
        "CloudTrail's records of what operators read and changed in the verifications, apps and audit tables",
    });
  }

  /**
   * Points the functions that ask at the chosen issuer: the simulator's function URL for
   * `simulator`, the lookup integration's bearer secret for `lookup`. e-Devlet itself needs
   * neither: the processing functions reach it as they are, with no VPC in the way.
   */
  private connectIssuer(
    choice: IssuerChoice,
    config: EnvironmentConfig,
    entries: readonly [string, FunctionDefinition][],
  ): void {
    const asking = entries.filter(([, definition]) => definition.access.issuer === "ask").map(([name]) => name);
    if (choice.kind === "simulator") {
      const url = this.simulatorUrl(config);
      // Every function that reads e-Devlet's address: the askers, and the tick, whose canary asks the form.
      for (const [name, definition] of entries) {
        const settings: readonly string[] = definition.settings;
        for (const setting of ["EDEVLET_URL", "EDEVLET_MOBILE_URL"]) {
          if (settings.includes(setting)) this.functionNamed(name).addEnvironment(setting, url);
        }
      }
    }
    if (choice.kind === "lookup") {
      const secret = Secret.fromSecretCompleteArn(this, "IssuerSecret", choice.secretArn);
      for (const name of asking) {
        this.functionNamed(name).addEnvironment("AUTHORITY_SECRET_ARN", secret.secretArn);
        secret.grantRead(this.functionNamed(name));
      }
    }
  }

  /**
   * The sandbox's e-Devlet simulator behind a function URL, with a generated key for its
   * session cookies; it answers whoever asks, as e-Devlet's public barcode verification does.
   */
  private simulatorUrl(config: EnvironmentConfig): string {
    if (!this.functions.has("edevlet-simulator")) {
      throw new Error(`The e-Devlet simulator is not deployed in ${config.environment}: choose another -c issuer=`);
    }
    const simulator = this.functionNamed("edevlet-simulator");
    const key = new Secret(this, "SimulatorKey", {
      description: `Signs the e-Devlet simulator's session cookies (${config.environment})`,
      generateSecretString: { passwordLength: SECRETS_KEY_LENGTH, excludePunctuation: true, includeSpace: false },
      removalPolicy: config.removalPolicy,
    });
    Validations.of(key).acknowledge({
      id: "AwsSolutions-SMG4",
      reason: "Signs the simulator's sessions, which last one lookup; replacing it is one redeploy",
    });
    key.grantRead(simulator);
    simulator.addEnvironment("SIMULATOR_KEY_ARN", key.secretArn);
    const url = simulator.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
    new CfnOutput(this, "EdevletSimulatorUrl", {
      value: url.url,
      description:
        "The sandbox's e-Devlet simulator: the web form at /belge-dogrulama, the mobile endpoint at /api.php",
    });
    return url.url;
  }

  private functionNamed(name: string): NodejsFunction {
    const fn = this.functions.get(name);
    if (!fn) throw new Error(`No function named ${name} in shared/declarations/functions.ts`);
    return fn;
  }

  private table(definition: TableDefinition, config: EnvironmentConfig, indexStep = Number.POSITIVE_INFINITY): Table {
    const attribute = (key: { name: string; type: "S" | "N" }) => ({
      name: key.name,
      type: key.type === "S" ? AttributeType.STRING : AttributeType.NUMBER,
    });
    const table = new Table(this, `${definition.id}Table`, {
      partitionKey: attribute(definition.partitionKey),
      ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
      ...(definition.ttlAttribute ? { timeToLiveAttribute: definition.ttlAttribute } : {}),
      ...(definition.stream ? { stream: StreamViewType[definition.stream] } : {}),
      ...(definition.appendOnly
        ? {
            // Whatever a role's policy allows, no principal changes or removes a record.
            resourcePolicy: new PolicyDocument({
              statements: [
                new PolicyStatement({
                  effect: Effect.DENY,
                  principals: [new AnyPrincipal()],
                  actions: APPEND_ONLY_DENIED_ACTIONS,
                  // A table's policy cannot name the table's own ARN (a circular reference): * is the table.
                  resources: ["*"],
                }),
              ],
            }),
          }
        : {}),
    });
    for (const index of definition.globalIndexes.filter((candidate) => (candidate.addedInStep ?? 0) <= indexStep)) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
      });
    }
    return table;
  }

  /** Server access logs of the stack's buckets (the uploads, the operator trail's), kept 90 days. */
  private accessLogsBucket(config: EnvironmentConfig): Bucket {
    return new Bucket(this, "UploadsAccessLogs", {
      ...privateBucket(config),
      lifecycleRules: [{ expiration: Duration.days(90) }],
    });
  }

  private uploadsBucket(config: EnvironmentConfig, accessLogs: Bucket): Bucket {
    return new Bucket(this, "Uploads", {
      ...privateBucket(config),
      serverAccessLogsBucket: accessLogs,
      lifecycleRules: [
        {
          id: "expire-documents",
          prefix: documentKey(""),
          expiration: Duration.days(config.uploadRetentionDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
    });
  }
}
