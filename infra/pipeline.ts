import { Duration, Validations } from "aws-cdk-lib";
import { ComparisonOperator, MathExpression, Metric } from "aws-cdk-lib/aws-cloudwatch";
import type { Table } from "aws-cdk-lib/aws-dynamodb";
import { Rule, RuleTargetInput, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { FilterCriteria, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsDlq, SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import {
  AUDIT_TRAIL_BROKEN_METRIC,
  EDEVLET_CANARY_FAILED_METRIC,
  ISSUER_LOOKUPS_METRIC,
  ISSUER_UNAVAILABLE_REVIEWS_METRIC,
  LOOKUP_OUTCOME_DIMENSION,
  metricsNamespace,
  PARKED_EVENTS_METRIC,
  UPLOADS_AFTER_ERASURE_METRIC,
} from "#shared/declarations/metrics";
import { DELIVERY_QUEUE, ISSUER_QUEUE, type QueueDefinition } from "#shared/declarations/queues";
import { CHANGE_STREAM_FILTER, CHANGE_STREAM_READING } from "#shared/declarations/stream-filter";
import { SEAL_INTERVAL_MINUTES } from "#shared/domain/audit-digests";
import type { ApiAlarms } from "./alarms.ts";
import type { EnvironmentConfig } from "./config.ts";

/** The share of unrecognised answers, in percent, that means e-Devlet's pages changed, and the fewest lookups it is judged on. */
const UNRECOGNISED_PERCENT = 5;
const UNRECOGNISED_MIN_LOOKUPS = 10;

/**
 * A queue where what failed every retry waits, 14 days, encrypted and TLS only. It is itself the
 * last stop (`whose` says of what), so it has no queue behind it.
 */
function failureQueue(scope: Construct, id: string, environment: EnvironmentConfig, whose: string): Queue {
  const queue = new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: environment.removalPolicy,
  });
  Validations.of(queue).acknowledge({
    id: "AwsSolutions-SQS3",
    reason: `This queue is itself ${whose}: it has no queue behind it`,
  });
  return queue;
}

/**
 * A queue of `QUEUES` (the delivery queue, the issuer queue) and its failure queue: made before
 * the functions, whose settings name it; `Pipeline` gives it its reader.
 */
export class QueueWithFailures extends Construct {
  readonly queue: Queue;
  readonly failures: Queue;

  constructor(scope: Construct, id: string, environment: EnvironmentConfig, definition: QueueDefinition) {
    super(scope, id);
    this.failures = failureQueue(this, "Failures", environment, `the ${definition.id} queue's failure queue`);
    this.queue = new Queue(this, "Queue", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      // A delivery waits in the events table too, and a lookup is retried for minutes, not days.
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.failures, maxReceiveCount: definition.maxReceiveCount },
      removalPolicy: environment.removalPolicy,
    });
  }
}

export interface PipelineProps {
  environment: EnvironmentConfig;
  verifications: Table;
  /** Reads the change stream: processing, events, and sending them to the delivery queue. */
  consumer: NodejsFunction;
  /** The delivery queue and its reader, which makes each event's first attempt. */
  deliveries: { queues: QueueWithFailures; reader: NodejsFunction };
  /** The issuer queue and its reader, which asks the issuer: at most the stage's issuer concurrency at once. */
  lookups: { queues: QueueWithFailures; reader: NodejsFunction };
  /** Runs every minute: expiry and due webhook retries. */
  tick: NodejsFunction;
  /** The audit sealer, run every few minutes. */
  sealer: NodejsFunction;
  alarms: ApiAlarms;
}

/**
 * What follows a change of state: the change stream drives the consumer (filtered as the
 * local poller filters, retried, bisected on error, and parked in a queue when every retry
 * fails), the delivery queue drives its reader, and a one-minute schedule drives the tick.
 */
export class Pipeline extends Construct {
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: PipelineProps) {
    super(scope, id);
    this.failures = failureQueue(
      this,
      "ChangeFailures",
      props.environment,
      "the on-failure destination of the change stream",
    );
    this.readers(props);
    this.schedules(props);
    this.serviceAlarms(props);
    this.failureAlarms(props);
    this.issuerAlarms(props);
  }

  /** The change stream's consumer and each queue's reader. */
  private readers(props: PipelineProps): void {
    props.consumer.addEventSource(
      new DynamoEventSource(props.verifications, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: CHANGE_STREAM_READING.batchSize,
        parallelizationFactor: CHANGE_STREAM_READING.parallelizationFactor,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(this.failures),
        filters: [FilterCriteria.filter(CHANGE_STREAM_FILTER as unknown as Record<string, unknown>)],
      }),
    );

    props.deliveries.reader.addEventSource(
      new SqsEventSource(props.deliveries.queues.queue, {
        batchSize: DELIVERY_QUEUE.batchSize,
        maxConcurrency: DELIVERY_QUEUE.maxConcurrency,
      }),
    );

    // One message per invocation and at most `concurrency` invocations: that many lookups in flight, no more.
    props.lookups.reader.addEventSource(
      new SqsEventSource(props.lookups.queues.queue, {
        batchSize: ISSUER_QUEUE.batchSize,
        maxConcurrency: props.environment.issuer.concurrency,
      }),
    );
  }

  /** The tick every minute (and its e-Devlet canary every 15), the audit seal every few minutes. */
  private schedules(props: PipelineProps): void {
    new Rule(this, "Tick", {
      description: "Expires overdue uploads and sends due webhook retries",
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(props.tick, { retryAttempts: 2 })],
    });
    new Rule(this, "AuditSeal", {
      description: "Signs a digest of the audit records written since the last one",
      schedule: Schedule.rate(Duration.minutes(SEAL_INTERVAL_MINUTES)),
      targets: [new LambdaFunction(props.sealer, { retryAttempts: 2 })],
    });
    new Rule(this, "EdevletCanary", {
      description: "One lookup of a barcode e-Devlet cannot know, which must read its documented negative",
      schedule: Schedule.rate(Duration.minutes(15)),
      targets: [
        new LambdaFunction(props.tick, { retryAttempts: 0, event: RuleTargetInput.fromObject({ canary: true }) }),
      ],
    });
  }

  /** What the functions count of their own: any one in its period fires its alarm. */
  private serviceAlarms(props: PipelineProps): void {
    const onCount = (id: string, description: string, metricName: string, minutes: number) =>
      props.alarms.add(id, description, {
        metric: new Metric({
          namespace: metricsNamespace(props.environment.environment),
          metricName,
          period: Duration.minutes(minutes),
          statistic: "Sum",
        }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    onCount(
      "AuditTrailBroken",
      "an audit month does not agree with its signed digests: run ops audit verify",
      AUDIT_TRAIL_BROKEN_METRIC,
      SEAL_INTERVAL_MINUTES,
    );
    onCount(
      "EdevletCanaryFailed",
      "the e-Devlet canary did not read the documented negative: e-Devlet may have changed its pages",
      EDEVLET_CANARY_FAILED_METRIC,
      15,
    );
    onCount("ParkedEvents", "a webhook event was parked after its last delivery attempt", PARKED_EVENTS_METRIC, 5);
    onCount(
      "UploadsAfterErasure",
      "a document was put through an upload URL after its verification was erased; the tick removed it",
      UPLOADS_AFTER_ERASURE_METRIC,
      5,
    );
  }

  /** A message in any failure queue: what failed every retry waits there. */
  private failureAlarms(props: PipelineProps): void {
    const onWaiting = (id: string, description: string, failures: Queue) =>
      props.alarms.add(id, description, {
        metric: failures.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: "Maximum",
        }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    onWaiting(
      "DeliveryFailures",
      "a delivery message failed every take; its event waits for the tick",
      props.deliveries.queues.failures,
    );
    onWaiting(
      "IssuerLookupFailures",
      "a lookup message failed every take: its verification waits in processing",
      props.lookups.queues.failures,
    );
    onWaiting("ChangeFailures", "a change of state failed every retry and waits in the failure queue", this.failures);
  }

  /**
   * The issuer's health (docs/runbook.md): e-Devlet answering in a way the adapter does not
   * recognise (the sign that its pages changed), and verifications going to review because it
   * never answered.
   */
  private issuerAlarms(props: PipelineProps): void {
    const namespace = metricsNamespace(props.environment.environment);
    const period = Duration.minutes(15);
    const lookups = (outcome?: string) =>
      new Metric({
        namespace,
        metricName: ISSUER_LOOKUPS_METRIC,
        ...(outcome ? { dimensionsMap: { [LOOKUP_OUTCOME_DIMENSION]: outcome } } : {}),
        period,
        statistic: "Sum",
      });
    props.alarms.add(
      "IssuerUnrecognisedAnswers",
      `more than ${UNRECOGNISED_PERCENT}% of issuer lookups in 15 minutes got an answer the adapter does not recognise: e-Devlet may have changed its pages`,
      {
        metric: new MathExpression({
          expression: `IF(total >= ${UNRECOGNISED_MIN_LOOKUPS}, 100 * unrecognised / total, 0)`,
          usingMetrics: { total: lookups(), unrecognised: lookups("unavailable_unrecognised") },
          period,
          label: "unrecognised issuer answers (%)",
        }),
        threshold: UNRECOGNISED_PERCENT,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      },
    );
    props.alarms.add(
      "IssuerUnavailableReviews",
      `${props.environment.alarms.issuerUnavailableReviews} or more verifications went to review in 15 minutes because the issuer never answered`,
      {
        metric: new Metric({ namespace, metricName: ISSUER_UNAVAILABLE_REVIEWS_METRIC, period, statistic: "Sum" }),
        threshold: props.environment.alarms.issuerUnavailableReviews,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      },
    );
  }
}
