import { Duration } from "aws-cdk-lib";
import type { Stage } from "aws-cdk-lib/aws-apigateway";
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { FilterPattern, type ILogGroup, MetricFilter } from "aws-cdk-lib/aws-logs";
import { Topic } from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";
import { metricsNamespace } from "#shared/declarations/metrics";
import { constructId, type EnvironmentConfig } from "./config.ts";

const PERIOD = Duration.minutes(5);

export interface ApiAlarmsProps {
  environment: EnvironmentConfig;
  stage: Stage;
  /** The stage's JSON access log: gateway-side failures are counted from it. */
  accessLogs: ILogGroup;
  /** Every function by name. Route handlers answer every known error, so their Errors are crashes and timeouts. */
  functions: ReadonlyMap<string, NodejsFunction>;
  /**
   * The authorizer's Errors metric counts every refused key (it throws "Unauthorized" by API
   * Gateway's convention), so its failures are counted from the access log instead.
   */
  authorizerName: string;
}

/** Alarms an operator must hear about, all sent to one encrypted SNS topic. */
export class ApiAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  private readonly action: SnsAction;
  private readonly environmentName: string;

  constructor(scope: Construct, id: string, props: ApiAlarmsProps) {
    super(scope, id);
    const { environment, stage, accessLogs } = props;

    // CloudWatch can publish to an encrypted topic only with a key whose policy lets it.
    const key = new Key(this, "TopicKey", {
      description: `Encrypts the ${environment.environment} verification API alarm topic`,
      enableKeyRotation: true,
      removalPolicy: environment.removalPolicy,
    });
    key.grant(new ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt", "kms:GenerateDataKey*");
    this.topic = new Topic(this, "Topic", { masterKey: key, enforceSSL: true });
    this.action = new SnsAction(this.topic);
    this.environmentName = environment.environment;
    const add = this.add.bind(this);

    const requests = stage.metricCount({ period: PERIOD, statistic: "Sum" });
    const serverErrors = stage.metricServerError({ period: PERIOD, statistic: "Sum" });
    add("ServerErrorRate", `more than ${environment.alarms.serverErrorPercent}% of requests answered 5xx`, {
      metric: new MathExpression({
        expression: `IF(requests >= ${environment.alarms.serverErrorMinRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        period: PERIOD,
        label: "5xx rate (%)",
      }),
      threshold: environment.alarms.serverErrorPercent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

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

    add("AuthorizerFailures", "the API key authorizer failed or timed out (callers got 503/500)", {
      metric: countFromAccessLog("AuthorizerFailures", ["AUTHORIZER_FAILURE", "AUTHORIZER_CONFIGURATION_ERROR"]),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    add("StageThrottles", `more than ${environment.alarms.throttledRequests} requests refused by stage throttling`, {
      metric: countFromAccessLog("ThrottledRequests", ["THROTTLED"]),
      threshold: environment.alarms.throttledRequests,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });

    for (const [name, fn] of props.functions) {
      if (name === props.authorizerName) continue;
      add(`${constructId(name)}Errors`, `${name} crashed or timed out`, {
        metric: fn.metricErrors({ period: PERIOD, statistic: "Sum" }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
    for (const [name, fn] of props.functions) {
      add(`${constructId(name)}Throttles`, `${name} invocations throttled by Lambda concurrency`, {
        metric: fn.metricThrottles({ period: PERIOD, statistic: "Sum" }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
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
