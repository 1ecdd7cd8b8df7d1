import path from "node:path";
import { Duration, Stack, Validations } from "aws-cdk-lib";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { ApplicationLogLevel, Architecture, LoggingFormat, SystemLogLevel, Tracing } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import type { CfnBucket } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import type { FunctionDefinition } from "#shared/declarations/function-definition";
import { functionBundling, PROJECT_ROOT, RUNTIME } from "./bundling.ts";
import { constructId } from "./config.ts";
import { deployedEnvironment, type FunctionResources } from "./function-environment.ts";
import {
  auditSealingUse,
  DOCUMENT_KEYS,
  functionStatements,
  IDENTITY_SEALING_ACTIONS,
  identitySealingUse,
  type PolicyResources,
  SEALING_ACTIONS,
  sealingKeyUse,
  subjectKeyUse,
} from "./function-policy.ts";

/** Each function's memory: what the document reader's budget is measured against (bench/report.ts). */
const MEMORY_MB = 512;

export interface ApiFunctionProps {
  /** The function's name, as its declaration (`shared/declarations/functions/<name>.ts`) gives it. */
  name: string;
  /** Its declaration there: entry, settings, timeout and access. */
  definition: FunctionDefinition;
  /** What the stack deployed that a function can be given. */
  resources: FunctionResources;
}

/**
 * One Lambda from its shared declaration: its own role with only the table, bucket and
 * secret actions it declares, its own log group, and the bundle built with the lockfile's
 * dependencies (the SDK included, so AWS runs the versions the tests ran).
 */
export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    this.role = this.roleFor(props);
    const logGroup = this.logGroupFor(props);
    this.grantDeclared(props);
    this.function = this.functionFor(props, logGroup);
    this.acknowledgeWildcards(props);
  }

  /** A role of its own, which Lambda alone may assume. */
  private roleFor({ name, resources }: ApiFunctionProps): Role {
    return new Role(this, "Role", {
      assumedBy: new ServicePrincipal("lambda.amazonaws.com"),
      description: `${name} (${resources.environment.environment}): its log group and the data it declares`,
    });
  }

  /** A log group of its own, kept as the environment keeps logs; the role may write to it. */
  private logGroupFor({ resources }: ApiFunctionProps): LogGroup {
    const logGroup = new LogGroup(this, "Logs", {
      retention: resources.environment.logRetention,
      removalPolicy: resources.environment.removalPolicy,
    });
    logGroup.grantWrite(this.role);
    return logGroup;
  }

  /**
   * What its declaration lets it do (infra/function-policy.ts), on the stack's resources; its use
   * of the sealing key, in that key's policy.
   */
  private grantDeclared({ name, definition, resources }: ApiFunctionProps): void {
    const arns: PolicyResources = {
      region: Stack.of(this).region,
      tables: new Map(
        [...resources.tables].map(([setting, entry]) => [
          setting,
          { arn: entry.table.tableArn, definition: entry.definition },
        ]),
      ),
      uploadsBucketArn: resources.uploads.bucketArn,
      secretsKeyArn: resources.secretsKey.secretArn,
      usagePlanId: resources.usagePlanId,
      deliveryQueueArn: resources.deliveryQueue.queueArn,
      issuerQueueArn: resources.issuerQueue.queueArn,
      portalUserPoolArn: resources.pools.portal.userPoolArn,
    };
    for (const statement of functionStatements(name, definition, arns)) this.role.addToPrincipalPolicy(statement);
    // The sealing key's own policy names the role: no IAM statement could grant it (infra/function-policy.ts).
    const sealing = definition.access.sealing;
    if (sealing) {
      const use = sealing === "decrypt" ? "Decrypt" : "Encrypt";
      resources.sealingKey.addToResourcePolicy(
        sealingKeyUse(SEALING_ACTIONS[sealing], this.role, `${use}By${constructId(name)}`),
      );
    }
    const identities = definition.access.identitySealing;
    if (identities) {
      const use = identities === "open" ? "OpenIdentities" : "SealIdentities";
      resources.identityKey.addToResourcePolicy(
        identitySealingUse(IDENTITY_SEALING_ACTIONS[identities], this.role, `${use}By${constructId(name)}`),
      );
    }
    if (definition.access.subjectDigest) {
      resources.subjectKey.addToResourcePolicy(subjectKeyUse(this.role, `DigestBy${constructId(name)}`));
    }
    if (definition.access.auditSealing) {
      resources.auditSealingKey.addToResourcePolicy(auditSealingUse(this.role, `SignBy${constructId(name)}`));
    }
  }

  /** The function itself: arm64, traced, JSON logs into its log group, its declared settings. */
  private functionFor({ name, definition, resources }: ApiFunctionProps, logGroup: LogGroup): NodejsFunction {
    const { environment } = resources;
    return new NodejsFunction(this, "Function", {
      description: `${name} (${environment.environment})`,
      entry: path.join(PROJECT_ROOT, definition.entry),
      handler: "handler",
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, "package-lock.json"),
      runtime: RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: MEMORY_MB,
      timeout: Duration.seconds(definition.timeoutSeconds),
      role: this.role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      // Lambda's level wins over Powertools' when both are set, so they are set alike.
      applicationLogLevelV2: ApplicationLogLevel[environment.logLevel],
      systemLogLevelV2: SystemLogLevel.INFO,
      tracing: Tracing.ACTIVE,
      environment: deployedEnvironment(definition, resources),
      bundling: functionBundling(definition),
    });
  }

  /** The role's wildcards cdk-nag finds, each with why it is as narrow as it can be. */
  private acknowledgeWildcards({ definition, resources }: ApiFunctionProps): void {
    if (definition.access.uploads.length > 0) {
      const bucket = Stack.of(this).getLogicalId(resources.uploads.node.defaultChild as CfnBucket);
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucket}.Arn>/${DOCUMENT_KEYS}]`,
        reason: "Object actions on the documents/ prefix: one object per verification, keyed by its id",
      });
    }
    Validations.of(this.role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions",
    });
  }
}
