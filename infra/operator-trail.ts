import { Duration, type RemovalPolicy, Stack } from "aws-cdk-lib";
import { CfnTrail } from "aws-cdk-lib/aws-cloudtrail";
import type { Table } from "aws-cdk-lib/aws-dynamodb";
import { AnyPrincipal, Effect, type IRole, PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { OPERATOR_TRAIL } from "#shared/declarations/operators";
import type { Environment } from "#shared/domain/environments";

/**
 * What operators read and change in the tables `OPERATOR_TRAIL` names, recorded by CloudTrail:
 * a trail of this region whose advanced event selectors take the DynamoDB data events of those
 * tables made in the operator role's sessions, and nothing else (the functions' own reads are
 * the service working, and would cost by the million). Log files and their digest files (log
 * file validation) go to a versioned bucket that no principal may delete from; its lifecycle
 * removes them after `OPERATOR_TRAIL.keptDays`.
 */
export class OperatorTrail extends Construct {
  readonly trail: CfnTrail;
  readonly bucket: Bucket;

  constructor(
    scope: Construct,
    id: string,
    props: {
      environment: Environment;
      operators: IRole;
      tables: readonly Table[];
      accessLogs: IBucket;
      removalPolicy: RemovalPolicy;
    },
  ) {
    super(scope, id);
    const stack = Stack.of(this);
    const trailName = `${stack.stackName}-operator-reads`;
    // Known before the trail exists, so the bucket's policy can name it (no confused deputy).
    const trailArn = `arn:${stack.partition}:cloudtrail:${stack.region}:${stack.account}:trail/${trailName}`;
    const kept = Duration.days(OPERATOR_TRAIL.keptDays);
    this.bucket = new Bucket(this, "Logs", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: "operator-trail/",
      removalPolicy: props.removalPolicy,
      lifecycleRules: [{ id: "keep-operator-records", expiration: kept, noncurrentVersionExpiration: kept }],
    });
    const cloudTrail = new ServicePrincipal("cloudtrail.amazonaws.com");
    const fromThisTrail = { "aws:SourceArn": trailArn };
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: "TrailReadsTheAcl",
        principals: [cloudTrail],
        actions: ["s3:GetBucketAcl"],
        resources: [this.bucket.bucketArn],
        conditions: { StringEquals: fromThisTrail },
      }),
    );
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: "TrailWritesItsLogs",
        principals: [cloudTrail],
        actions: ["s3:PutObject"],
        resources: [this.bucket.arnForObjects(`AWSLogs/${stack.account}/*`)],
        conditions: { StringEquals: { ...fromThisTrail, "s3:x-amz-acl": "bucket-owner-full-control" } },
      }),
    );
    // The records outlive whoever they record: only the lifecycle removes them.
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: "NobodyDeletesRecords",
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ["s3:DeleteObject", "s3:DeleteObjectVersion"],
        resources: [this.bucket.arnForObjects("*")],
      }),
    );

    this.trail = new CfnTrail(this, "Trail", {
      trailName,
      isLogging: true,
      s3BucketName: this.bucket.bucketName,
      enableLogFileValidation: true,
      isMultiRegionTrail: false,
      includeGlobalServiceEvents: false,
      advancedEventSelectors: [
        {
          name: `Operators' reads and writes of personal data, apps and audit records (${props.environment})`,
          fieldSelectors: [
            { field: "eventCategory", equalTo: ["Data"] },
            { field: "resources.type", equalTo: ["AWS::DynamoDB::Table"] },
            { field: "resources.ARN", equalTo: props.tables.map((table) => table.tableArn) },
            // An operator's session: arn:aws:sts::<account>:assumed-role/<operator role>/<session>.
            {
              field: "userIdentity.arn",
              startsWith: [`arn:${stack.partition}:sts::${stack.account}:assumed-role/${props.operators.roleName}/`],
            },
          ],
        },
      ],
    });
    // CloudTrail checks the bucket's policy when the trail is made.
    if (this.bucket.policy) this.trail.node.addDependency(this.bucket.policy);
  }
}
