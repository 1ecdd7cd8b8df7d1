import { RemovalPolicy } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { ISSUER_QUEUE } from "#shared/declarations/queues";
import { STAGE_THROTTLING } from "#shared/declarations/routes";
import { ENVIRONMENTS, type Environment } from "#shared/domain/environments";
import { DEFAULT_RETRY_WINDOW_SECONDS } from "#shared/domain/issuer";

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
  /** Asking the issuer: how many lookups at once, how long an unavailable one is retried. */
  issuer: {
    /** Lookups in flight at once for the stage (the issuer queue reader's maximum concurrency; 2 at least). */
    concurrency: number;
    retryWindowSeconds: number;
  };
  alarms: {
    /** Verifications sent to review in 15 minutes because the issuer never answered, before an operator hears of it. */
    issuerUnavailableReviews: number;
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
    issuer: { concurrency: ISSUER_QUEUE.maxConcurrency, retryWindowSeconds: DEFAULT_RETRY_WINDOW_SECONDS },
    // The published busy certificate sends testers' verifications to review on purpose.
    alarms: { issuerUnavailableReviews: 20, serverErrorPercent: 5, serverErrorMinRequests: 20, throttledRequests: 100 },
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
    issuer: { concurrency: ISSUER_QUEUE.maxConcurrency, retryWindowSeconds: DEFAULT_RETRY_WINDOW_SECONDS },
    alarms: { issuerUnavailableReviews: 3, serverErrorPercent: 1, serverErrorMinRequests: 20, throttledRequests: 50 },
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
