/**
 * What a deployed function finds in its environment: each setting it declares mapped to its
 * physical value in the stack, and what every function reads besides (Powertools' service name
 * and level, source-mapped stack traces).
 */
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { IKey } from "aws-cdk-lib/aws-kms";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { ISecret } from "aws-cdk-lib/aws-secretsmanager";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import type { FunctionDefinition } from "#shared/declarations/function-definition";
import { isOptionalSetting, type SettingName } from "#shared/declarations/settings";
import type { TableDefinition } from "#shared/declarations/tables";
import { SIMULATOR_DOCUMENTS_FOLDER, WEB_ASSETS_FOLDER } from "./bundling.ts";
import type { EnvironmentConfig } from "./config.ts";

export const SERVICE_NAME = "verification-api";

/** Where Lambda unpacks a function's bundle. */
const TASK_ROOT = "/var/task";

/** The deployed resources a function can be given, by the setting that names them. */
export interface FunctionResources {
  environment: EnvironmentConfig;
  tables: ReadonlyMap<SettingName, { table: ITable; definition: TableDefinition }>;
  uploads: IBucket;
  /** The retired key material that sealed webhook secrets before KMS; read only by functions that declare it. */
  secretsKey: ISecret;
  /** The KMS key that seals webhook secrets. */
  sealingKey: IKey;
  /** The KMS key that seals identity numbers sent with a verification by its keys. */
  identityKey: IKey;
  /** The KMS HMAC key expected identity numbers are kept as the digest of. */
  subjectKey: IKey;
  /** The KMS key (`ECC_NIST_P256`) the audit trail's digests are signed with. */
  auditSealingKey: IKey;
  /** The public stage's usage plan: each app's own request bucket. */
  usagePlanId: string;
  /** The queue new webhook events wait in for their first attempt. */
  deliveryQueue: IQueue;
  /** The queue every lookup of the issuer waits in. */
  issuerQueue: IQueue;
  /** Which issuer the functions that reach it read (`ISSUER`, e-Devlet's protocol, the retry window, ...). */
  issuer: Partial<Record<SettingName, string>>;
  /** The staff and customer user pools and the web pages' clients of them. */
  pools: {
    staff: { userPoolId: string; clientId: string };
    portal: { userPoolId: string; clientId: string; userPoolArn: string };
  };
}

/** Each setting's value in the deployed stack; the local engines' endpoints have none there. */
function settingValues(resources: FunctionResources): Partial<Record<SettingName, string>> {
  const { environment, uploads, secretsKey, sealingKey, deliveryQueue, issuerQueue, pools } = resources;
  return {
    ENVIRONMENT: environment.environment,
    ...resources.issuer,
    SIMULATOR_DOCUMENTS: `${TASK_ROOT}/${SIMULATOR_DOCUMENTS_FOLDER}`,
    UPLOADS_BUCKET: uploads.bucketName,
    VERIFICATION_RETENTION_DAYS: String(environment.recordRetentionDays),
    SECRETS_KEY_ARN: secretsKey.secretArn,
    SEALING_KEY_ID: sealingKey.keyArn,
    IDENTITY_KEY_ID: resources.identityKey.keyArn,
    SUBJECT_KEY_ID: resources.subjectKey.keyArn,
    AUDIT_SEALING_KEY_ID: resources.auditSealingKey.keyArn,
    USAGE_PLAN_ID: resources.usagePlanId,
    DELIVERY_QUEUE_URL: deliveryQueue.queueUrl,
    ISSUER_QUEUE_URL: issuerQueue.queueUrl,
    STAFF_USER_POOL_ID: pools.staff.userPoolId,
    STAFF_CLIENT_ID: pools.staff.clientId,
    PORTAL_USER_POOL_ID: pools.portal.userPoolId,
    PORTAL_CLIENT_ID: pools.portal.clientId,
    WEB_ASSETS: `${TASK_ROOT}/${WEB_ASSETS_FOLDER}`,
    ...Object.fromEntries([...resources.tables].map(([setting, entry]) => [setting, entry.table.tableName])),
  };
}

/**
 * The environment a function reads: the settings it declares, each mapped to its physical
 * value. An optional setting with no value in AWS is left unset (a local engine's endpoint:
 * in AWS the SDK finds the regional one). A required one with no value stops the synth
 * instead of deploying a function that fails at cold start.
 */
export function functionEnvironment(
  settings: readonly SettingName[],
  values: Partial<Record<SettingName, string>>,
): Record<string, string> {
  return Object.fromEntries(
    settings.flatMap((setting) => {
      const value = values[setting];
      if (value !== undefined) return [[setting, value]];
      if (isOptionalSetting(setting)) return [];
      throw new Error(`Setting ${setting} has no value in the deployed stack`);
    }),
  );
}

/** The whole environment of the function `definition` declares, deployed with `resources`. */
export function deployedEnvironment(
  definition: FunctionDefinition,
  resources: FunctionResources,
): Record<string, string> {
  return {
    ...functionEnvironment(definition.settings, settingValues(resources)),
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_LOG_LEVEL: resources.environment.logLevel,
    // Stack traces point at the TypeScript sources through the bundled source map.
    NODE_OPTIONS: "--enable-source-maps",
  };
}
