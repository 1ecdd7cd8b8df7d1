import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type KeyItem, keyPk } from "../domain/apps.ts";
import type { KeyLookup } from "../ports/key-lookup.ts";

/** API keys in the apps table, as the authorizer reads them: a key item by its hash, and its last use. */
export class DynamoDbKeyLookup implements KeyLookup {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async getKey(keyHash: string): Promise<KeyItem | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { pk: keyPk(keyHash) } }));
    return Item as KeyItem | undefined;
  }

  /**
   * One conditional update of `last_used_at` alone, answering nothing back: the authorizer's
   * grant allows exactly this write on key items (infra: `updatedAttributes`).
   */
  async recordKeyUse(pk: string, at: string, staleBefore: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk },
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
