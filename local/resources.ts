/** Tables and process settings for the local engines, from the shared definitions. */

import path from "node:path";
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import type { SettingName } from "#shared/declarations/settings";
import { TABLES, type TableDefinition } from "#shared/declarations/tables";
import type { Environment } from "#shared/domain/environments";
import { destinationsFor } from "#shared/domain/environments";
import { STAFF_GROUPS } from "#shared/domain/staff";
import { LOCAL_BUCKET, LOCAL_REGION, type LocalCredentials } from "./engines.ts";
import type { PoolConfig } from "./identity.ts";
import { LOCAL_AUDIT_KEY_ID, LOCAL_IDENTITY_KEY_ID, LOCAL_SEALING_KEY_ID, LOCAL_SUBJECT_KEY_ID } from "./kms.ts";
import { LOCAL_USAGE_PLAN_ID } from "./usage-plans.ts";

export function tableName(prefix: string, table: TableDefinition): string {
  return `${prefix}${table.id}`;
}

function indexSpec(index: TableDefinition["globalIndexes"][number]) {
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey.name, KeyType: "HASH" as const },
      ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: "RANGE" as const }] : []),
    ],
    Projection: { ProjectionType: "ALL" as const },
  };
}

/** Adds the indexes a table made by an older version of the runtime lacks, one at a time as DynamoDB requires. */
async function ensureIndexes(client: DynamoDBClient, name: string, table: TableDefinition): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of table.globalIndexes.filter((candidate) => !present.has(candidate.indexName))) {
    const keys = [index.partitionKey, ...(index.sortKey ? [index.sortKey] : [])];
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: keys.map((key) => ({ AttributeName: key.name, AttributeType: key.type })),
        GlobalSecondaryIndexUpdates: [{ Create: indexSpec(index) }],
      }),
    );
  }
}

/** Creates every shared table that does not exist yet, and the indexes an existing one lacks. */
export async function ensureTables(client: DynamoDBClient, prefix: string): Promise<void> {
  const { TableNames = [] } = await client.send(new ListTablesCommand({}));
  for (const table of TABLES) {
    const name = tableName(prefix, table);
    if (TableNames.includes(name)) {
      await ensureIndexes(client, name, table);
      continue;
    }
    const keys = [table.partitionKey, ...("sortKey" in table && table.sortKey ? [table.sortKey] : [])];
    const indexKeys = table.globalIndexes.flatMap((index) => [
      index.partitionKey,
      ...(index.sortKey ? [index.sortKey] : []),
    ]);
    const attributes = new Map([...keys, ...indexKeys].map((key) => [key.name, key.type]));
    try {
      await client.send(
        new CreateTableCommand({
          TableName: name,
          BillingMode: "PAY_PER_REQUEST",
          AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({
            AttributeName,
            AttributeType,
          })),
          KeySchema: keys.map((key, i) => ({ AttributeName: key.name, KeyType: i === 0 ? "HASH" : "RANGE" })),
          ...(table.globalIndexes.length > 0
            ? {
                GlobalSecondaryIndexes: table.globalIndexes.map(indexSpec),
              }
            : {}),
          ...(table.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream } } : {}),
        }),
      );
    } catch (error) {
      // Another process created it in the meantime.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
    if (table.ttlAttribute) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { Enabled: true, AttributeName: table.ttlAttribute },
        }),
      );
    }
  }
}

/** The settings that say which issuer processing asks and how: set by `npm start`'s own environment or a test. */
export const ISSUER_SETTINGS = [
  "ISSUER",
  "EDEVLET_PROTOCOL",
  "EDEVLET_URL",
  "EDEVLET_MOBILE_URL",
  "ISSUER_RETRY_WINDOW_S",
  "AUTHORITY_URL",
  "AUTHORITY_SECRET",
] as const satisfies readonly SettingName[];
export type IssuerSetting = (typeof ISSUER_SETTINGS)[number];

/** The published test certificates, which the local e-Devlet simulator always holds. */
export const PUBLISHED_CERTIFICATES = path.resolve(__dirname, "../docs/test-documents/issuer");

/** The local staff pool and the console's client of it. */
export const LOCAL_STAFF_POOL = { id: `${LOCAL_REGION}_LocalStaff`, clientId: "localstaffconsole" } as const;

/** The local customer pool (portal logins) and the portal page's client of it. */
export const LOCAL_PORTAL_POOL = { id: `${LOCAL_REGION}_LocalPortal`, clientId: "localportalpage" } as const;

/** The pools the local identity endpoint serves. */
export const LOCAL_POOLS: readonly PoolConfig[] = [
  {
    id: LOCAL_STAFF_POOL.id,
    clientIds: [LOCAL_STAFF_POOL.clientId],
    groups: STAFF_GROUPS,
    // Seeded logins sign in with a password; a user who sets up TOTP is asked for a code, as in AWS.
    mfa: "optional",
  },
  // Roles live in the organisation's membership, not in pool groups; MFA is the user's choice, as deployed.
  { id: LOCAL_PORTAL_POOL.id, clientIds: [LOCAL_PORTAL_POOL.clientId], groups: [], mfa: "optional" },
];

/** The process environment the functions read, pointed at the local engines. */
export function localSettings(options: {
  environment: Environment;
  tablePrefix: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** The access key the local engines take, which the functions sign with. */
  credentials: LocalCredentials;
  secretsKey: string;
  /** The local key service; absent in a process that seals nothing (the test engines' global setup). */
  kmsEndpoint?: string;
  /** The local usage plan's control plane; absent in a process that creates no app (the test engines' global setup). */
  apiGatewayEndpoint?: string;
  /** The local queues' URLs (deliveries, issuer lookups); absent in a process that loads no function (the test engines' global setup). */
  queues?: { deliveries: string; lookups: string };
  /**
   * The issuer processing asks (`ISSUER`, and for e-Devlet `EDEVLET_PROTOCOL`, `EDEVLET_URL`,
   * `EDEVLET_MOBILE_URL`; for the lookup contract `AUTHORITY_URL`, `AUTHORITY_SECRET`; the retry
   * window), and the e-Devlet simulator's certificate folders and cookie key.
   */
  issuer: {
    settings: Partial<Record<IssuerSetting, string>>;
    simulator: { documents: string[]; key: string; latencyMs?: number };
  };
  /**
   * The local identity endpoint that serves the user pools, and the built web pages; absent in
   * a process that loads no backoffice function (the test engines' global setup).
   */
  backoffice?: { identityEndpoint: string; webAssets: string };
}): Record<string, string> {
  const tables = Object.fromEntries(TABLES.map((table) => [table.setting, tableName(options.tablePrefix, table)]));
  const settings: Partial<Record<SettingName, string>> = {
    ...tables,
    ENVIRONMENT: options.environment,
    WEBHOOK_DESTINATIONS: destinationsFor(options.environment, "local"),
    UPLOADS_BUCKET: LOCAL_BUCKET,
    // As both stacks keep records.
    VERIFICATION_RETENTION_DAYS: "365",
    SECRETS_KEY: options.secretsKey,
    SEALING_KEY_ID: LOCAL_SEALING_KEY_ID,
    IDENTITY_KEY_ID: LOCAL_IDENTITY_KEY_ID,
    SUBJECT_KEY_ID: LOCAL_SUBJECT_KEY_ID,
    AUDIT_SEALING_KEY_ID: LOCAL_AUDIT_KEY_ID,
    ...(options.kmsEndpoint ? { KMS_ENDPOINT: options.kmsEndpoint } : {}),
    USAGE_PLAN_ID: LOCAL_USAGE_PLAN_ID,
    ...(options.apiGatewayEndpoint ? { APIGATEWAY_ENDPOINT: options.apiGatewayEndpoint } : {}),
    ...(options.queues
      ? {
          DELIVERY_QUEUE_URL: options.queues.deliveries,
          ISSUER_QUEUE_URL: options.queues.lookups,
          SQS_ENDPOINT: new URL(options.queues.deliveries).origin,
        }
      : {}),
    ISSUER: "edevlet",
    ...options.issuer.settings,
    SIMULATOR_DOCUMENTS: options.issuer.simulator.documents.join(path.delimiter),
    SIMULATOR_KEY: options.issuer.simulator.key,
    ...(options.issuer.simulator.latencyMs !== undefined
      ? { SIMULATOR_LATENCY_MS: String(options.issuer.simulator.latencyMs) }
      : {}),
    STAFF_USER_POOL_ID: LOCAL_STAFF_POOL.id,
    STAFF_CLIENT_ID: LOCAL_STAFF_POOL.clientId,
    PORTAL_USER_POOL_ID: LOCAL_PORTAL_POOL.id,
    PORTAL_CLIENT_ID: LOCAL_PORTAL_POOL.clientId,
    ...(options.backoffice
      ? { IDENTITY_ENDPOINT: options.backoffice.identityEndpoint, WEB_ASSETS: options.backoffice.webAssets }
      : {}),
    DYNAMODB_ENDPOINT: options.dynamoEndpoint,
    S3_ENDPOINT: options.s3Endpoint,
  };
  return {
    ...(settings as Record<string, string>),
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: options.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: options.credentials.secretAccessKey,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}
