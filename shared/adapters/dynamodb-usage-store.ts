import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, paginateQuery, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { USAGE_OUTCOMES, type UsageOutcome } from "../domain/usage.ts";
import type { UsageCounts, UsageStore } from "../ports/usage-store.ts";

/** How long a verification stays marked as counted: longer than a change stream keeps a record (24 h). */
const MARK_SECONDS = 7 * 24 * 3600;

const appKey = (appId: string) => `APP#${appId}`;
const dayKey = (day: string) => `DAY#${day}`;

/** The usage table: one counter item per app and day, and a mark per counted verification. */
export class DynamoDbUsageStore implements UsageStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The mark and the counter in one transaction: a second call for the same verification changes nothing. */
  async count(input: { appId: string; day: string; outcome: UsageOutcome; verificationId: string }): Promise<void> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: {
                  pk: `VER#${input.verificationId}`,
                  sk: "COUNTED",
                  expires_at_epoch: Math.floor(Date.now() / 1000) + MARK_SECONDS,
                },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            {
              Update: {
                TableName: this.table,
                Key: { pk: appKey(input.appId), sk: dayKey(input.day) },
                UpdateExpression: "ADD #outcome :one SET app_id = :app, #day = :day",
                ExpressionAttributeNames: { "#outcome": input.outcome, "#day": "day" },
                ExpressionAttributeValues: { ":one": 1, ":app": input.appId, ":day": input.day },
              },
            },
          ],
        }),
      );
    } catch (error) {
      const counted =
        error instanceof TransactionCanceledException &&
        error.CancellationReasons?.[0]?.Code === "ConditionalCheckFailed";
      if (!counted) throw error;
    }
  }

  async read(appId: string, from: string, to: string): Promise<UsageCounts[]> {
    const rows: UsageCounts[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        KeyConditionExpression: "pk = :app AND sk BETWEEN :from AND :to",
        ExpressionAttributeValues: { ":app": appKey(appId), ":from": dayKey(from), ":to": dayKey(to) },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const counts: UsageCounts["counts"] = {};
        for (const outcome of USAGE_OUTCOMES) {
          if (typeof item[outcome] === "number") counts[outcome] = item[outcome];
        }
        rows.push({ appId, day: String(item.day), counts });
      }
    }
    return rows;
  }
}
