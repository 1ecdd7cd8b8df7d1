import { Duration, Stack, Validations } from "aws-cdk-lib";
import type { Table } from "aws-cdk-lib/aws-dynamodb";
import { AccountPrincipal, PolicyDocument, PolicyStatement, Role } from "aws-cdk-lib/aws-iam";
import type { IKey } from "aws-cdk-lib/aws-kms";
import type { CfnBucket, IBucket } from "aws-cdk-lib/aws-s3";
import type { ISecret } from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import type { TableSetting } from "#shared/declarations/function-definition";
import { OPERATOR_ACCESS, OPERATOR_SESSION_SECONDS } from "#shared/declarations/operators";
import type { TableDefinition } from "#shared/declarations/tables";
import type { Environment } from "#shared/domain/environments";
import { appLimitsStatements, sealingKeyUse } from "./function-policy.ts";

/**
 * The role operators assume to run the ops command against an environment: only what
 * `OPERATOR_ACCESS` declares, only for principals of this account signed in with MFA, for an
 * hour at a time.
 */
export class OperatorRole extends Construct {
  readonly role: Role;

  constructor(
    scope: Construct,
    id: string,
    props: {
      environment: Environment;
      tables: Map<TableSetting, { table: Table; definition: TableDefinition }>;
      uploads: IBucket;
      retiredSealingKey: ISecret;
      sealingKey: IKey;
      auditSealingKey: IKey;
      userPoolArns: string[];
      usagePlanId: string;
    },
  ) {
    super(scope, id);
    const stack = Stack.of(this);
    const statements: PolicyStatement[] = [];
    for (const [setting, actions] of Object.entries(OPERATOR_ACCESS.tables) as [TableSetting, readonly string[]][]) {
      const entry = props.tables.get(setting);
      if (!entry) throw new Error(`The operator role names ${setting}, which is not a table`);
      const { table, definition } = entry;
      const indexes = definition.globalIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`);
      statements.push(new PolicyStatement({ actions: [...actions], resources: [table.tableArn, ...indexes] }));
    }
    statements.push(
      new PolicyStatement({
        actions: [...OPERATOR_ACCESS.uploads],
        resources: [props.uploads.arnForObjects(`${OPERATOR_ACCESS.uploadsPrefix}*`)],
      }),
      new PolicyStatement({ actions: [...OPERATOR_ACCESS.userPools], resources: props.userPoolArns }),
      new PolicyStatement({ actions: [...OPERATOR_ACCESS.sealingKey], resources: [props.retiredSealingKey.secretArn] }),
      ...appLimitsStatements(OPERATOR_ACCESS.appLimits, stack.region, props.usagePlanId),
      new PolicyStatement({ actions: [...OPERATOR_ACCESS.stack], resources: [stack.stackId] }),
    );
    this.role = new Role(this, "Role", {
      description: `Runs the ops command against ${props.environment}: MFA required, one hour`,
      assumedBy: new AccountPrincipal(stack.account).withConditions({
        Bool: { "aws:MultiFactorAuthPresent": "true" },
        NumericLessThan: { "aws:MultiFactorAuthAge": String(OPERATOR_SESSION_SECONDS) },
      }),
      maxSessionDuration: Duration.seconds(OPERATOR_SESSION_SECONDS),
      inlinePolicies: { ops: new PolicyDocument({ statements }) },
    });
    // Seal new secrets, open none (`apps create`, `webhooks rotate-secret`, `webhooks reseal`): granted
    // in the sealing key's own policy, the one place that can.
    props.sealingKey.addToResourcePolicy(sealingKeyUse(OPERATOR_ACCESS.kms, this.role, "EncryptByOperators"));
    props.auditSealingKey.addToResourcePolicy(
      new PolicyStatement({
        sid: "PublicKeyForOperators",
        principals: [this.role],
        actions: [...OPERATOR_ACCESS.auditKey],
        resources: ["*"],
      }),
    );
    const bucket = stack.getLogicalId(props.uploads.node.defaultChild as CfnBucket);
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucket}.Arn>/${OPERATOR_ACCESS.uploadsPrefix}*]`,
      reason: "Erasure deletes the objects of any verification: one object per verification, keyed by its id",
    });
  }
}
