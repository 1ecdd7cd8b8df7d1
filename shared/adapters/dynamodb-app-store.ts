import { type DynamoDBDocumentClient, GetCommand, paginateQuery, paginateScan } from "@aws-sdk/lib-dynamodb";
import { APPS_TABLE } from "../declarations/tables.ts";
import { type AppItem, type AppStatus, isLiveKey, type KeyItem } from "../domain/apps.ts";
import { StaleAppError } from "../domain/errors.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { AppStore } from "../ports/app-store.ts";
import { type AppRow, appFromRow, appPk, appRow } from "./dynamodb-app-rows.ts";
import { DynamoDbKeyLookup, type KeyRow, keyFromRow, keyPk, keyRow } from "./dynamodb-key-lookup.ts";
import { writeTakingPlace } from "./dynamodb-organization-places.ts";
import { type AuditLinker, linked, refused, type WriteItem, writeTogether } from "./dynamodb-writes.ts";

/** The condition that the app item still has the key set it had when it was read. */
function sameKeyVersion(app: AppItem) {
  return { expression: "key_version = :seen_version", values: { ":seen_version": app.key_version } };
}

/** The apps table: apps and their API keys; a change with a record is written with it, through `audit`. */
export class DynamoDbAppStore implements AppStore {
  /** Key items as the authorizer reads them: one adapter, so its bundle carries no more. */
  private readonly keys: DynamoDbKeyLookup;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit?: AuditLinker,
  ) {
    this.keys = new DynamoDbKeyLookup(db, table);
  }

  /** `record` with what links it into its chain. */
  private audited(record: AuditRecord | undefined) {
    return linked(this.audit, record);
  }

  /** `changes`, and with `record` the record of them, together; a refusal as DynamoDB gave it. */
  private write(changes: WriteItem[], record: AuditRecord | undefined) {
    return writeTogether(this.db, changes, this.audited(record));
  }

  /**
   * An app and its first key, written together or not at all; an organisation's app takes one of
   * its places in the same transaction. False, writing nothing, when it has no place free.
   */
  async createWithKey(
    app: AppItem,
    key: KeyItem,
    audit: AuditRecord | undefined,
    appsPerOrganization: number,
  ): Promise<boolean> {
    const changes: WriteItem[] = [
      { Put: { TableName: this.table, Item: appRow(app), ConditionExpression: "attribute_not_exists(pk)" } },
      { Put: { TableName: this.table, Item: keyRow(key), ConditionExpression: "attribute_not_exists(pk)" } },
    ];
    if (!app.organization_id) {
      await this.write(changes, audit);
      return true;
    }
    const place = { organizationId: app.organization_id, most: appsPerOrganization, counted: "apps" as const };
    return writeTakingPlace(this.db, this.table, place, changes, this.audited(audit));
  }

  async getApp(appId: string): Promise<AppItem | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { pk: appPk(appId) }, ConsistentRead: true }),
    );
    return Item && appFromRow(Item as AppRow);
  }

  /** Every app in the table (the table is small: one item per app and per key). */
  async listApps(): Promise<AppItem[]> {
    const apps: AppItem[] = [];
    const pages = paginateScan(
      { client: this.db },
      { TableName: this.table, FilterExpression: "kind = :app", ExpressionAttributeValues: { ":app": "app" } },
    );
    for await (const page of pages) apps.push(...((page.Items ?? []) as AppRow[]).map(appFromRow));
    return apps.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.app_id.localeCompare(b.app_id));
  }

  getKey(keyHash: string): Promise<KeyItem | undefined> {
    return this.keys.getKey(keyHash);
  }

  recordKeyUse(keyHash: string, at: string, staleBefore: string): Promise<boolean> {
    return this.keys.recordKeyUse(keyHash, at, staleBefore);
  }

  async renameKey(appId: string, keyHash: string, name: string, audit?: AuditRecord): Promise<boolean> {
    const change = {
      Update: {
        TableName: this.table,
        Key: { pk: keyPk(keyHash) },
        UpdateExpression: "SET #name = :name",
        ConditionExpression: "key_app_id = :app",
        ExpressionAttributeNames: { "#name": "name" },
        ExpressionAttributeValues: { ":name": name, ":app": appId },
      },
    };
    try {
      await this.write([change], audit);
      return true;
    } catch (error) {
      if (refused(error, 1)) return false;
      throw error;
    }
  }

  async setWebhookUrl(appId: string, url: string | undefined, now: string, audit?: AuditRecord): Promise<void> {
    await this.write(
      [
        {
          Update: {
            TableName: this.table,
            Key: { pk: appPk(appId) },
            ConditionExpression: "attribute_exists(pk)",
            ...(url === undefined
              ? {
                  UpdateExpression: "SET updated_at = :now REMOVE webhook_url",
                  ExpressionAttributeValues: { ":now": now },
                }
              : {
                  UpdateExpression: "SET webhook_url = :url, updated_at = :now",
                  ExpressionAttributeValues: { ":url": url, ":now": now },
                }),
          },
        },
      ],
      audit,
    );
  }

  /** Every key of the app, oldest first, from the index: for display, not for decisions. */
  async listKeys(appId: string): Promise<KeyItem[]> {
    const keys: KeyItem[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        IndexName: APPS_TABLE.indexes.keysByApp.indexName,
        KeyConditionExpression: "key_app_id = :app",
        ExpressionAttributeValues: { ":app": appId },
      },
    );
    for await (const page of pages) keys.push(...((page.Items ?? []) as KeyRow[]).map(keyFromRow));
    return keys;
  }

  /** The app's keys that may still pass, read consistently. */
  async currentKeys(app: AppItem, now: string): Promise<KeyItem[]> {
    const items = await Promise.all(
      app.key_hashes.map(async (keyHash) => {
        const { Item } = await this.db.send(
          new GetCommand({ TableName: this.table, Key: { pk: keyPk(keyHash) }, ConsistentRead: true }),
        );
        return Item && keyFromRow(Item as KeyRow);
      }),
    );
    return items.filter((key): key is KeyItem => key !== undefined && isLiveKey(key, now));
  }

  /**
   * Enables or disables an app: the app and each of its live keys change together, so the
   * authorizer's single read of a key sees the app's status. Returns the app as it now is,
   * or undefined when there is no such app; StaleAppError when a key change raced it.
   */
  async setStatus(appId: string, status: AppStatus, now: string, audit?: AuditRecord): Promise<AppItem | undefined> {
    const app = await this.getApp(appId);
    if (!app) return undefined;
    const keys = await this.currentKeys(app, now);
    const version = sameKeyVersion(app);
    await this.transact(
      [
        {
          Update: {
            TableName: this.table,
            Key: { pk: appPk(app.app_id) },
            UpdateExpression: "SET #status = :status, updated_at = :now",
            ConditionExpression: `attribute_exists(pk) AND ${version.expression}`,
            ExpressionAttributeNames: { "#status": "status" },
            ExpressionAttributeValues: { ":status": status, ":now": now, ...version.values },
          },
        },
        ...keys.map((key) => ({
          Update: {
            TableName: this.table,
            Key: { pk: keyPk(key.key_hash) },
            UpdateExpression: "SET app_status = :status",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":status": status },
          },
        })),
      ],
      audit,
    );
    return { ...app, status, updated_at: now };
  }

  /**
   * Adds `key` to `app` and gives the keys in `expiring` their expiry, in one transaction
   * that holds only while the app keeps the status and key set it was read with.
   * `keyHashes` is the app's new set of keys that may still pass.
   */
  async addKey(
    app: AppItem,
    key: KeyItem,
    expiring: { key_hash: string; expires_at: string }[],
    keyHashes: string[],
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    await this.transact(
      [
        // The new key carries the app's status: the app must still have it.
        this.keySetUpdate(app, keyHashes, now, {
          expression: "#status = :status",
          names: { "#status": "status" },
          values: { ":status": key.app_status },
        }),
        { Put: { TableName: this.table, Item: keyRow(key), ConditionExpression: "attribute_not_exists(pk)" } },
        ...expiring.map((old) => ({
          Update: {
            TableName: this.table,
            Key: { pk: keyPk(old.key_hash) },
            UpdateExpression: "SET expires_at = :expires",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":expires": old.expires_at },
          },
        })),
      ],
      audit,
    );
  }

  /** Revokes the keys `revoked` (a subset of the app's keys) at once; `keyHashes` is what remains. */
  async revokeKeys(
    app: AppItem,
    revoked: string[],
    keyHashes: string[],
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    await this.transact(
      [
        this.keySetUpdate(app, keyHashes, now, { expression: "attribute_exists(pk)" }),
        ...revoked.map((keyHash) => ({
          Update: {
            TableName: this.table,
            Key: { pk: keyPk(keyHash) },
            UpdateExpression: "SET revoked_at = if_not_exists(revoked_at, :now)",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":now": now },
          },
        })),
      ],
      audit,
    );
  }

  /**
   * Replaces the webhook signing secret, keeping the one it replaces as the previous secret
   * until `previousExpiresAt`; holds only while the current secret is still `app`'s.
   */
  async rotateWebhookSecret(
    app: AppItem,
    sealed: string,
    previousExpiresAt: string,
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    await this.transact(
      [
        {
          Update: {
            TableName: this.table,
            Key: { pk: appPk(app.app_id) },
            UpdateExpression:
              "SET webhook_secret_sealed = :sealed, previous_webhook_secret_sealed = :previous, previous_webhook_secret_expires_at = :expires, updated_at = :now",
            ConditionExpression: "webhook_secret_sealed = :previous",
            ExpressionAttributeValues: {
              ":sealed": sealed,
              ":previous": app.webhook_secret_sealed,
              ":expires": previousExpiresAt,
              ":now": now,
            },
          },
        },
      ],
      audit,
    );
  }

  async resealSecrets(
    app: AppItem,
    sealed: { current: string; previous?: string },
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    const previous = sealed.previous !== undefined && app.previous_webhook_secret_sealed !== undefined;
    await this.transact(
      [
        {
          Update: {
            TableName: this.table,
            Key: { pk: appPk(app.app_id) },
            UpdateExpression: `SET webhook_secret_sealed = :sealed, updated_at = :now${previous ? ", previous_webhook_secret_sealed = :previous" : ""}`,
            ConditionExpression: `webhook_secret_sealed = :was${previous ? " AND previous_webhook_secret_sealed = :wasPrevious" : ""}`,
            ExpressionAttributeValues: {
              ":sealed": sealed.current,
              ":was": app.webhook_secret_sealed,
              ":now": now,
              ...(previous ? { ":previous": sealed.previous, ":wasPrevious": app.previous_webhook_secret_sealed } : {}),
            },
          },
        },
      ],
      audit,
    );
  }

  /**
   * The app item's new set of live keys, one version on, written only while the app still
   * has the version it was read with and `condition` holds.
   */
  private keySetUpdate(
    app: AppItem,
    keyHashes: string[],
    now: string,
    condition: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
  ) {
    const version = sameKeyVersion(app);
    return {
      Update: {
        TableName: this.table,
        Key: { pk: appPk(app.app_id) },
        UpdateExpression: "SET key_pks = :pks, key_version = :next, updated_at = :now",
        ConditionExpression: `${condition.expression} AND ${version.expression}`,
        ...(condition.names ? { ExpressionAttributeNames: condition.names } : {}),
        ExpressionAttributeValues: {
          ":pks": keyHashes.map(keyPk),
          ":next": app.key_version + 1,
          ":now": now,
          ...condition.values,
          ...version.values,
        },
      },
    };
  }

  /** `items` (and `audit`'s record) together; a failed condition or a racing transaction is StaleAppError. */
  private async transact(items: WriteItem[], audit?: AuditRecord): Promise<void> {
    try {
      await this.write(items, audit);
    } catch (error) {
      if (refused(error, items.length)) throw new StaleAppError();
      throw error;
    }
  }
}
