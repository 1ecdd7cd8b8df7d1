import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { KeyItem } from "../domain/apps.ts";
import type { KeyLookup } from "../ports/key-lookup.ts";

const KEY_PREFIX = "KEY#";

/** The apps table's partition key of an API key's item: `KEY#<sha256 of the key>`. */
export const keyPk = (keyHash: string) => `${KEY_PREFIX}${keyHash}`;
/** The hash an API key's partition key carries. */
export const keyHashOf = (pk: string) => pk.slice(KEY_PREFIX.length);

/** An API key as the apps table keeps it: its hash only in its partition key. */
export type KeyRow = Omit<KeyItem, "key_hash"> & { pk: string };

export function keyRow({ key_hash, ...key }: KeyItem): KeyRow {
  return { pk: keyPk(key_hash), ...key };
}

export function keyFromRow({ pk, ...row }: KeyRow): KeyItem {
  return { key_hash: keyHashOf(pk), ...row };
}

/** API keys in the apps table, as the authorizer reads them: a key item by its hash, and its last use. */
export class DynamoDbKeyLookup implements KeyLookup {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async getKey(keyHash: string): Promise<KeyItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: keyPk(keyHash) } }));
    return Item && keyFromRow(Item as KeyRow);
  }

  /**
   * One conditional update of `last_used_at` alone, answering nothing back: the authorizer's
   * grant allows exactly this write on key items (infra: `updatedAttributes`).
   */
  async recordKeyUse(keyHash: string, at: string, staleBefore: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: keyPk(keyHash) },
          UpdateExpression: "SET last_used_at = :at",
          ConditionExpression:
            "attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at <= :stale)",
          ExpressionAttributeValues: { ":at": at, ":stale": staleBefore },
          ReturnValues: "NONE",
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
