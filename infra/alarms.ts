import { Duration, Stack } from "aws-cdk-lib";
import type { Stage } from "aws-cdk-lib/aws-apigateway";
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { FilterPattern, type ILogGroup, MetricFilter } from "aws-cdk-lib/aws-logs";
import { Topic } from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";
import { metricsNamespace } from "#shared/declarations/metrics";
import type { EnvironmentConfig } from "./config.ts";

const PERIOD = Duration.minutes(5);

/** The most metrics one metric-math alarm reads. */
const ALARM_METRICS = 10;

/** `items` in order, packed into groups whose metrics together stay within `budget`. */
function metricGroups<T extends { metrics: Record<string, unknown> }>(items: readonly T[], budget: number): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let used = 0;
  for (const item of items) {
    const size = Object.keys(item.metrics).length;
    if (used + size > budget && current.length > 0) {
      groups.push(current);
      current = [];
      used = 0;
    }
    current.push(item);
    used += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** A REST API the alarms watch, and how its alarms are named. */
export interface WatchedApi {
  stage: Stage;
  /** The stage's JSON access log: gateway-side failures are counted from it. */
  accessLogs: ILogGroup;
  /** Prefix of its alarm ids and of the metrics counted from its access log. */
  idPrefix: string;
  /** Appended to its alarm descriptions. */
  subject: string;
  /** Its authorizer, as the alarm names it. */
  authorizerTitle: string;
  /** Whether its callers are apps, each needing its key in the usage plan. */
  perApp: boolean;
}

export interface ApiAlarmsProps {
  environment: EnvironmentConfig;
  apis: readonly WatchedApi[];
  /** Every function by name. Route handlers answer every known error, so their Errors are crashes and timeouts. */
  functions: ReadonlyMap<string, NodejsFunction>;
  /**
   * The authorizers' Errors metric counts every refused key or token (they throw "Unauthorized"
   * by API Gateway's convention), so their failures are counted from the access logs instead.
   */
  authorizerNames: ReadonlySet<string>;
}

/** Alarms an operator must hear about, all sent to one encrypted SNS topic. */
export class ApiAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  private readonly action: SnsAction;
  private readonly environmentName: string;

  constructor(scope: Construct, id: string, props: ApiAlarmsProps) {
    super(scope, id);
    const { environment } = props;

    // CloudWatch can publish to an encrypted topic only with a key whose policy lets it.
    const key = new Key(this, "TopicKey", {
      description: `Encrypts the ${environment.environment} verification API alarm topic`,
      enableKeyRotation: true,
      removalPolicy: environment.removalPolicy,
    });
    // Only CloudWatch acting for this account's alarms (the confused-deputy guard).
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal("cloudwatch.amazonaws.com")],
        actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
        resources: ["*"],
        conditions: {
          StringEquals: { "aws:SourceAccount": Stack.of(this).account },
          ArnLike: {
            "aws:SourceArn": `arn:${Stack.of(this).partition}:cloudwatch:${Stack.of(this).region}:${Stack.of(this).account}:alarm:*`,
          },
        },
      }),
    );
    this.topic = new Topic(this, "Topic", { masterKey: key, enforceSSL: true });
    this.action = new SnsAction(this.topic);
    this.environmentName = environment.environment;

    for (const api of props.apis) this.watchApi(api, environment);

    // Functions watched a few to an alarm (a metric-math alarm reads at most 10 metrics), so the
    // stack stays within CloudFormation's 500 resources. Route handlers answer every known error,
    // so their Errors are crashes and timeouts; an authorizer's are refused keys and tokens,
    // counted from the access log instead: only its throttles are watched here.
    const watched = [...props.functions].map(([name, fn]) => {
      const metrics: Record<string, IMetric> = { throttles: fn.metricThrottles({ period: PERIOD, statistic: "Sum" }) };
      if (!props.authorizerNames.has(name)) metrics.errors = fn.metricErrors({ period: PERIOD, statistic: "Sum" });
      return { name, metrics };
    });
    for (const [index, group] of metricGroups(watched, ALARM_METRICS).entries()) {
      const usingMetrics = Object.fromEntries(
        group.flatMap(({ metrics }, member) =>
          Object.entries(metrics).map(([kind, metric]) => [`${kind}${member}`, metric]),
        ),
      );
      this.add(
        `FunctionFaults${index + 1}`,
        `one of ${group.map(({ name }) => name).join(", ")} crashed, timed out, or was throttled by Lambda concurrency`,
        {
          metric: new MathExpression({
            expression: Object.keys(usingMetrics).join(" + "),
            usingMetrics,
            period: PERIOD,
            label: "errors and throttles",
          }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
        },
      );
    }
  }

  /** The API's 5xx rate, its authorizer's failures and its stage throttling. */
  private watchApi(api: WatchedApi, environment: EnvironmentConfig): void {
    const { stage, accessLogs, idPrefix, subject } = api;
    const requests = stage.metricCount({ period: PERIOD, statistic: "Sum" });
    const serverErrors = stage.metricServerError({ period: PERIOD, statistic: "Sum" });
    this.add(
      `${idPrefix}ServerErrorRate`,
      `more than ${environment.alarms.serverErrorPercent}% of requests answered 5xx${subject}`,
      {
        metric: new MathExpression({
          expression: `IF(requests >= ${environment.alarms.serverErrorMinRequests}, 100 * errors / requests, 0)`,
          usingMetrics: { requests, errors: serverErrors },
          period: PERIOD,
          label: "5xx rate (%)",
        }),
        threshold: environment.alarms.serverErrorPercent,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      },
    );

    const namespace = metricsNamespace(environment.environment);
    const countFromAccessLog = (metricName: string, responseTypes: string[]) => {
      new MetricFilter(this, `${metricName}Filter`, {
        logGroup: accessLogs,
        metricNamespace: namespace,
        metricName,
        filterPattern: FilterPattern.any(
          ...responseTypes.map((type) => FilterPattern.stringValue("$.errorType", "=", type)),
        ),
        metricValue: "1",
        defaultValue: 0,
      });
      return new Metric({ namespace, metricName, period: PERIOD, statistic: "Sum" });
    };

    this.add(
      `${idPrefix}AuthorizerFailures`,
      `the ${api.authorizerTitle} failed or timed out (callers got 503/500)${subject}`,
      {
        metric: countFromAccessLog(`${idPrefix}AuthorizerFailures`, [
          "AUTHORIZER_FAILURE",
          "AUTHORIZER_CONFIGURATION_ERROR",
        ]),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      },
    );
    if (api.perApp) {
      this.add(
        `${idPrefix}AppsWithoutLimits`,
        `requests of an app with no key in the usage plan were answered 503: run ops apps sync-limits${subject}`,
        {
          metric: countFromAccessLog(`${idPrefix}AppsWithoutLimits`, ["INVALID_API_KEY"]),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
        },
      );
    }
    this.add(
      `${idPrefix}StageThrottles`,
      `more than ${environment.alarms.throttledRequests} requests refused by the stage's or an app's rate${subject}`,
      {
        metric: countFromAccessLog(`${idPrefix}ThrottledRequests`, ["THROTTLED"]),
        threshold: environment.alarms.throttledRequests,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      },
    );
  }

  /** An alarm that notifies the topic when it fires and when it clears. */
  add(
    alarmId: string,
    description: string,
    alarm: Omit<ConstructorParameters<typeof Alarm>[2], "alarmDescription">,
  ): void {
    const created = new Alarm(this, alarmId, {
      alarmDescription: `${this.environmentName}: ${description}`,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      ...alarm,
    });
    created.addAlarmAction(this.action);
    created.addOkAction(this.action);
    this.alarms.push(created);
  }
}
