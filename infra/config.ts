import { RemovalPolicy } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { STAGE_THROTTLING } from "#shared/declarations/routes";
import { ENVIRONMENTS, type Environment } from "#shared/domain/environments";

/** Everything that differs between the sandbox and the production stack. */
export interface EnvironmentConfig {
  environment: Environment;
  /** Stage throttling, as the contract's limits table says. */
  throttling: { rateLimit: number; burstLimit: number };
  /** Powertools and Lambda application log level. */
  logLevel: "DEBUG" | "INFO" | "WARN" | "ERROR";
  /** Function, access and execution logs. */
  logRetention: RetentionDays;
  /** Days an uploaded document is kept before the bucket's lifecycle deletes it. */
  uploadRetentionDays: number;
  /** Days a verification record is kept after its creation before the table's TTL deletes it. */
  recordRetentionDays: number;
  /** Tables, bucket, secret and log groups: kept or deleted with the stack. */
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  alarms: {
    /** Share of requests answered 5xx, in percent, over five minutes. */
    serverErrorPercent: number;
    /** Fewest requests in five minutes for the 5xx rate to count: a single failure of two is not an outage. */
    serverErrorMinRequests: number;
    /** Requests refused by stage throttling in five minutes before an operator hears of it. */
    throttledRequests: number;
  };
}

export const ENVIRONMENT_CONFIGS: Record<Environment, EnvironmentConfig> = {
  sandbox: {
    environment: "sandbox",
    throttling: STAGE_THROTTLING.sandbox,
    logLevel: "DEBUG",
    logRetention: RetentionDays.TWO_WEEKS,
    uploadRetentionDays: 7,
    recordRetentionDays: 365,
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    alarms: { serverErrorPercent: 5, serverErrorMinRequests: 20, throttledRequests: 100 },
  },
  production: {
    environment: "production",
    throttling: STAGE_THROTTLING.production,
    logLevel: "INFO",
    logRetention: RetentionDays.ONE_YEAR,
    uploadRetentionDays: 30,
    recordRetentionDays: 365,
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    alarms: { serverErrorPercent: 1, serverErrorMinRequests: 20, throttledRequests: 50 },
  },
};

/** The `-c env=...` value, refused unless it names one of the environments. */
export function environmentFromContext(value: unknown): Environment {
  const known = ENVIRONMENTS as readonly unknown[];
  if (!known.includes(value)) {
    throw new Error(
      `Choose the environment with -c env=${ENVIRONMENTS.join("|")} (got ${value === undefined ? "nothing" : JSON.stringify(value)})`,
    );
  }
  return value as Environment;
}

/**
 * Account and region: `-c account=… -c region=…` first, then the variables the CDK CLI sets
 * from the operator's credentials. With neither, the stack is environment-agnostic, which
 * is enough to synthesize offline; `cdk deploy` always has credentials, so it has both.
 */
export function deploymentTarget(
  context: { account?: unknown; region?: unknown },
  variables: NodeJS.ProcessEnv,
): { account?: string; region?: string } {
  const pick = (fromContext: unknown, fromVariable: string | undefined) =>
    typeof fromContext === "string" && fromContext !== "" ? fromContext : fromVariable || undefined;
  const account = pick(context.account, variables.CDK_DEFAULT_ACCOUNT);
  const region = pick(context.region, variables.CDK_DEFAULT_REGION);
  return { ...(account ? { account } : {}), ...(region ? { region } : {}) };
}

/** `create-verification` -> `CreateVerification`, for construct ids. */
export function constructId(name: string): string {
  return name.replace(/(^|-)(\w)/g, (_match, _dash, letter: string) => letter.toUpperCase());
}
