import { CfnOutput, Duration, Stack, type StackProps, Validations } from "aws-cdk-lib";
import { type RestApi, UsagePlan } from "aws-cdk-lib/aws-apigateway";
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from "aws-cdk-lib/aws-dynamodb";
import { AnyPrincipal, Effect, PolicyDocument, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import { FunctionUrlAuthType } from "aws-cdk-lib/aws-lambda";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { type ISecret, Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct, IDependable } from "constructs";
import { FUNCTIONS, type FunctionDefinition, type TableSetting } from "#shared/declarations/functions";
import { DELIVERY_QUEUE } from "#shared/declarations/queues";
import { APIS, APP_THROTTLING, type ApiDefinition, type ApiName } from "#shared/declarations/routes";
import type { SettingName } from "#shared/declarations/settings";
import { TABLES, type TableDefinition } from "#shared/declarations/tables";
import { documentKey } from "#shared/domain/verification";
import { ApiAlarms, type WatchedApi } from "./alarms.ts";
import { ApiFunction } from "./api-function.ts";
import { constructId, type EnvironmentConfig } from "./config.ts";
import { OperatorRole } from "./operator-role.ts";
import { DeliveryQueues, Pipeline } from "./pipeline.ts";
import { API_PARTS, declaredApi } from "./rest-api.ts";
import { CustomerIdentity, StaffIdentity } from "./user-pools.ts";
import { EdgeAcl } from "./web-acl.ts";

/** An API's declaration, seen as any API's: what it may declare, not only what it does. */
const definitionOf = (name: ApiName): ApiDefinition => APIS[name];

export interface VerificationApiStackProps extends StackProps {
  config: EnvironmentConfig;
  /**
   * The issuer-lookup integration an operator runs (production): its URL and the secret that
   * holds its bearer token. Without one, the sandbox runs its own authority service and
   * production sends every verification that needs the issuer to review.
   */
  issuer?: { url: string; secretArn: string };
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

    const tables = new Map<SettingName, { table: Table; definition: TableDefinition }>();
    for (const definition of TABLES) {
      const table = this.table(definition, config, props.indexStep);
      tables.set(definition.setting, { table, definition });
      new CfnOutput(this, `${definition.id}TableName`, {
        value: table.tableName,
        description: `The ${definition.id.toLowerCase()} table of ${environment}`,
      });
    }

    const uploads = this.uploadsBucket(config);
    new CfnOutput(this, "UploadsBucketName", {
      value: uploads.bucketName,
      description: `Uploaded documents (${environment})`,
    });

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
    const sealingKey = new Key(this, "SealingKey", {
      description: `Seals webhook signing secrets, each with its app id as encryption context (${environment})`,
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
    });
    new CfnOutput(this, "SealingKeyArn", {
      value: sealingKey.keyArn,
      description: "The KMS key that seals webhook secrets (operators may encrypt only)",
    });

    // Each app's own request rate: the authorizer names the app's key in it, and the public stage joins it below.
    const usagePlan = new UsagePlan(this, "AppRequests", {
      name: `${this.stackName}-apps`,
      description: `Each app's own request rate (${environment}): one API key per app, named by its app id`,
      throttle: APP_THROTTLING[environment],
    });
    new CfnOutput(this, "UsagePlanId", {
      value: usagePlan.usagePlanId,
      description: "Holds each app's request bucket: npm run ops -- apps sync-limits",
    });

    const deliveries = new DeliveryQueues(this, DELIVERY_QUEUE.id, config);

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

    const resources = {
      environment: config,
      tables,
      uploads,
      secretsKey,
      sealingKey,
      usagePlanId: usagePlan.usagePlanId,
      deliveryQueue: deliveries.queue,
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
      const fn = new ApiFunction(this, `${constructId(name)}Function`, name, definition, resources);
      this.functions.set(name, fn.function);
    }
    const issuer = props.issuer
      ? { url: props.issuer.url, secret: Secret.fromSecretCompleteArn(this, "IssuerSecret", props.issuer.secretArn) }
      : this.ownAuthority(config);
    for (const [name, definition] of entries) {
      if (definition.access.authority !== "client" || !issuer) continue;
      const fn = this.functionNamed(name);
      fn.addEnvironment("AUTHORITY_URL", issuer.url);
      fn.addEnvironment("AUTHORITY_SECRET_ARN", issuer.secret.secretArn);
      issuer.secret.grantRead(fn);
    }

    const watched: WatchedApi[] = [];
    let accountLogging: IDependable | undefined;
    for (const name of Object.keys(APIS) as ApiName[]) {
      const built = declaredApi(this, name, {
        config,
        functionNamed: (functionName) => this.functionNamed(functionName),
        accountLogging,
        usagePlan,
        enforceAppLimits: props.appLimits !== "prepare",
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
      new CfnOutput(this, `${APIS[name].id}Url`, {
        // The base URL the contract's paths (/v1/..., /backoffice/..., /portal/...) are appended to: no trailing slash.
        value: `https://${built.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${environment}`,
        description: `Base URL of the ${environment} ${parts.title}`,
      });
    }

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
      tick: this.functionNamed("tick"),
      alarms,
    });

    new CfnOutput(this, "AlarmTopicArn", { value: alarms.topic.topicArn, description: "Subscribe operators here" });

    const operators = new OperatorRole(this, "Operators", {
      environment,
      tables: new Map([...tables].map(([setting, entry]) => [setting as TableSetting, entry])),
      uploads,
      retiredSealingKey: secretsKey,
      sealingKey,
      userPoolArns: [staff.userPool.userPoolArn, customers.userPool.userPoolArn],
      usagePlanId: usagePlan.usagePlanId,
    });
    new CfnOutput(this, "OperatorRoleArn", {
      value: operators.role.roleArn,
      description: "Assume with MFA to run npm run ops -- --env against this environment",
    });
  }

  /**
   * The sandbox's own authority service behind a function URL, with a generated bearer secret;
   * none in production, where only an operator's integration may answer.
   */
  private ownAuthority(config: EnvironmentConfig): { url: string; secret: ISecret } | undefined {
    if (!this.functions.has("authority")) return undefined;
    const service = this.functionNamed("authority");
    const secret = new Secret(this, "AuthoritySecret", {
      description: `Bearer token of the issuer-lookup contract (${config.environment})`,
      generateSecretString: { passwordLength: SECRETS_KEY_LENGTH, excludePunctuation: true, includeSpace: false },
      removalPolicy: config.removalPolicy,
    });
    Validations.of(secret).acknowledge({
      id: "AwsSolutions-SMG4",
      reason: "A sandbox-only token shared by the service and its callers; replacing it is one redeploy",
    });
    secret.grantRead(service);
    service.addEnvironment("AUTHORITY_SECRET_ARN", secret.secretArn);
    // The handler checks the bearer token itself, as the contract says an issuer does.
    const url = service.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
    return { url: url.url, secret };
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

  private uploadsBucket(config: EnvironmentConfig): Bucket {
    const common = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: config.removalPolicy,
    };
    const accessLogs = new Bucket(this, "UploadsAccessLogs", {
      ...common,
      lifecycleRules: [{ expiration: Duration.days(90) }],
    });
    return new Bucket(this, "Uploads", {
      ...common,
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
