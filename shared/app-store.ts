import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type { Environment } from "./config.ts";
import { APPS_TABLE } from "./tables.ts";

export type AppStatus = "active" | "disabled";

/** A client app, as stored: `pk = APP#<app_id>`. */
export interface AppItem {
  pk: string;
  kind: "app";
  app_id: string;
  name: string;
  environment: Environment;
  status: AppStatus;
  webhook_url?: string;
  /** Sealed with SecretBox: never in plain text. */
  webhook_secret_sealed: string;
  created_at: string;
  updated_at: string;
}

/**
 * One API key, as stored: `pk = KEY#<sha256 of the key>`. It carries its app's status and
 * environment, so the authorizer decides with a single read.
 */
export interface KeyItem {
  pk: string;
  kind: "key";
  key_app_id: string;
  environment: Environment;
  prefix: string;
  app_status: AppStatus;
  created_at: string;
  expires_at?: string;
  revoked_at?: string;
}

export const appPk = (appId: string) => `APP#${appId}`;
export const keyPk = (keyHash: string) => `KEY#${keyHash}`;

/** The apps table: apps and their API keys. */
export class AppStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** An app and its first key, written together or not at all. */
  async createWithKey(app: AppItem, key: KeyItem): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.table, Item: app, ConditionExpression: "attribute_not_exists(pk)" } },
          { Put: { TableName: this.table, Item: key, ConditionExpression: "attribute_not_exists(pk)" } },
        ],
      }),
    );
  }

  async getApp(appId: string): Promise<AppItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: appPk(appId) } }));
    return Item as AppItem | undefined;
  }

  async getKey(keyHash: string): Promise<KeyItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: keyPk(keyHash) } }));
    return Item as KeyItem | undefined;
  }

  async setWebhookUrl(appId: string, url: string, now: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { pk: appPk(appId) },
        UpdateExpression: "SET webhook_url = :url, updated_at = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":url": url, ":now": now },
      }),
    );
  }

  /** Every key of the app, oldest first. */
  async listKeys(appId: string): Promise<KeyItem[]> {
    const keys: KeyItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: APPS_TABLE.globalIndexes[0].indexName,
          KeyConditionExpression: "key_app_id = :app",
          ExpressionAttributeValues: { ":app": appId },
          ExclusiveStartKey: start,
        }),
      );
      keys.push(...((page.Items ?? []) as KeyItem[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return keys;
  }

  /**
   * Enables or disables an app: the app and each of its unrevoked keys change together, so
   * the authorizer's single read of a key sees the app's status.
   */
  async setStatus(appId: string, status: AppStatus, now: string): Promise<void> {
    const keys = (await this.listKeys(appId)).filter((key) => !key.revoked_at);
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.table,
              Key: { pk: appPk(appId) },
              UpdateExpression: "SET #status = :status, updated_at = :now",
              ConditionExpression: "attribute_exists(pk)",
              ExpressionAttributeNames: { "#status": "status" },
              ExpressionAttributeValues: { ":status": status, ":now": now },
            },
          },
          ...keys.map((key) => ({
            Update: {
              TableName: this.table,
              Key: { pk: key.pk },
              UpdateExpression: "SET app_status = :status",
              ConditionExpression: "attribute_exists(pk)",
              ExpressionAttributeValues: { ":status": status },
            },
          })),
        ],
      }),
    );
  }
}
