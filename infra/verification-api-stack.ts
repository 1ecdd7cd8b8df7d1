import { CfnOutput, Duration, Stack, type StackProps, Validations } from "aws-cdk-lib";
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  RestApi,
} from "aws-cdk-lib/aws-apigateway";
import { AttributeType, BillingMode, StreamViewType, Table, TableEncryption } from "aws-cdk-lib/aws-dynamodb";
import { FunctionUrlAuthType } from "aws-cdk-lib/aws-lambda";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { type ISecret, Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { FUNCTIONS, type FunctionDefinition } from "#shared/declarations/functions";
import { AUTHORIZER, ROUTES } from "#shared/declarations/routes";
import type { SettingName } from "#shared/declarations/settings";
import { TABLES, type TableDefinition } from "#shared/declarations/tables";
import { documentKey } from "#shared/domain/verification";
import { ApiAlarms } from "./alarms.ts";
import { ApiFunction } from "./api-function.ts";
import { constructId, type EnvironmentConfig } from "./config.ts";
import { addGatewayResponses } from "./gateway-responses.ts";
import { Pipeline } from "./pipeline.ts";

export interface VerificationApiStackProps extends StackProps {
  config: EnvironmentConfig;
  /**
   * The issuer-lookup integration an operator runs (production): its URL and the secret that
   * holds its bearer token. Without one, the sandbox runs its own authority service and
   * production sends every verification that needs the issuer to review.
   */
  issuer?: { url: string; secretArn: string };
}

/** Characters of key material that seal webhook signing secrets (`SecretBox`). */
const SECRETS_KEY_LENGTH = 64;

/**
 * One environment of the verification API: the REST API with its REQUEST authorizer, one
 * function per shared route, the shared tables, the uploads bucket, the sealing key and the
 * alarms. Functions, routes and tables come from `shared/`, so the local runtime serves the
 * same ones.
 */
export class VerificationApiStack extends Stack {
  readonly api: RestApi;
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, props: VerificationApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const environment = config.environment;

    const tables = new Map<SettingName, { table: Table; definition: TableDefinition }>();
    for (const definition of TABLES) {
      const table = this.table(definition, config);
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
      description: "Sealing key for webhook secrets",
    });

    const resources = { environment: config, tables, uploads, secretsKey };
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
    const authorizerFunction = this.functionNamed(AUTHORIZER.function);

    const accessLogs = new LogGroup(this, "AccessLogs", {
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    this.api = new RestApi(this, "Api", {
      restApiName: this.stackName,
      description: `Document verification API (${environment})`,
      endpointTypes: [EndpointType.REGIONAL],
      // Execution logging needs the account's API Gateway CloudWatch role.
      cloudWatchRole: true,
      deployOptions: {
        stageName: environment,
        throttlingRateLimit: config.throttling.rateLimit,
        throttlingBurstLimit: config.throttling.burstLimit,
        tracingEnabled: true,
        metricsEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        // Never log bodies or headers: they carry API keys and customer data.
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: accessLogFormat(),
      },
    });
    // ApiUrl below is the one base URL output; the generated one ends in a slash.
    this.api.node.tryRemoveChild("Endpoint");
    // API Gateway creates the execution log group itself, kept forever; creating it first sets its retention.
    const executionLogs = new LogGroup(this, "ExecutionLogs", {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${environment}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    this.api.deploymentStage.node.addDependency(executionLogs);
    Validations.of(this.api).acknowledge({
      id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]",
      reason: "The account-level role API Gateway uses to write execution logs; AWS maintains its policy",
    });
    Validations.of(this.api).acknowledge({
      id: "AwsSolutions-APIG2",
      reason:
        "The handlers validate every request, so refusals carry the contract's problem+json codes (validation_failed, malformed_json, unsupported_media_type)",
    });
    Validations.of(this.api).acknowledge({
      id: "AwsSolutions-APIG3",
      reason:
        "Abuse is bounded by the API key authorizer and stage throttling; a WAF web ACL is an account-level decision",
    });
    Validations.of(this.api).acknowledge({
      id: "AwsSolutions-COG4",
      reason: "Callers are customer backends with API keys, checked by the REQUEST authorizer, not Cognito users",
    });

    const authorizer = new RequestAuthorizer(this, "ApiKeyAuthorizer", {
      handler: authorizerFunction,
      identitySources: [IdentitySource.header(AUTHORIZER.identityHeader)],
      resultsCacheTtl: Duration.seconds(config.authorizerCacheTtlSeconds),
    });
    for (const route of ROUTES) {
      const integration = new LambdaIntegration(this.functionNamed(route.function), { allowTestInvoke: false });
      this.api.root.resourceForPath(route.path).addMethod(route.method, integration, {
        authorizer,
        authorizationType: AuthorizationType.CUSTOM,
      });
    }
    addGatewayResponses(this.api);

    const alarms = new ApiAlarms(this, "Alarms", {
      environment: config,
      stage: this.api.deploymentStage,
      accessLogs,
      functions: this.functions,
      authorizerName: AUTHORIZER.function,
    });

    const verifications = tables.get("VERIFICATIONS_TABLE");
    if (!verifications) throw new Error("No verifications table in shared/declarations/tables.ts");
    new Pipeline(this, "Pipeline", {
      environment: config,
      verifications: verifications.table,
      consumer: this.functionNamed("on-verification-change"),
      tick: this.functionNamed("tick"),
      alarms,
    });

    new CfnOutput(this, "ApiUrl", {
      // The base URL the contract's paths (/v1/...) are appended to: no trailing slash.
      value: `https://${this.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${environment}`,
      description: `Base URL of the ${environment} API`,
    });
    new CfnOutput(this, "AlarmTopicArn", { value: alarms.topic.topicArn, description: "Subscribe operators here" });
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

  private table(definition: TableDefinition, config: EnvironmentConfig): Table {
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
    });
    for (const index of definition.globalIndexes) {
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

/** One JSON line per request; no header is logged, so no API key ever reaches the log. */
function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: AccessLogField.contextRequestId(),
      extendedRequestId: AccessLogField.contextExtendedRequestId(),
      requestTime: AccessLogField.contextRequestTime(),
      ip: AccessLogField.contextIdentitySourceIp(),
      userAgent: AccessLogField.contextIdentityUserAgent(),
      method: AccessLogField.contextHttpMethod(),
      resourcePath: AccessLogField.contextResourcePath(),
      path: AccessLogField.contextPath(),
      protocol: AccessLogField.contextProtocol(),
      status: AccessLogField.contextStatus(),
      responseLength: AccessLogField.contextResponseLength(),
      responseLatency: AccessLogField.contextResponseLatency(),
      integrationStatus: AccessLogField.contextIntegrationStatus(),
      integrationLatency: AccessLogField.contextIntegrationLatency(),
      appId: AccessLogField.contextAuthorizerPrincipalId(),
      authorizerStatus: AccessLogField.contextAuthorizerStatus(),
      authorizerLatency: AccessLogField.contextAuthorizerLatency(),
      errorType: AccessLogField.contextErrorResponseType(),
      errorMessage: AccessLogField.contextErrorMessage(),
      xrayTraceId: AccessLogField.contextXrayTraceId(),
    }),
  );
}
