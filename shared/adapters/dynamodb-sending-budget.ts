/**
 * An app's sends by hand, counted in the events table beside what they send: one item per app
 * and kind (`SENDS#<app_id>#<kind>`) holding when its window started and how many sends it has
 * taken. Each send is one conditional update, so concurrent sends cannot pass the limit.
 */
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { SENDING_LIMITS, type SendingKind } from "../domain/tenant-limits.ts";
import type { SendingBudget } from "../ports/sending-budget.ts";

/** How many times a send reads the window again after another send changed it first. */
const ATTEMPTS = 10;

/** The item counting the app's sends of `kind`. */
export const sendingKey = (appId: string, kind: SendingKind) => ({ pk: `SENDS#${appId}#${kind}`, sk: "BUDGET" });

interface Window {
  window_start: number;
  sends: number;
}

export class DynamoDbSendingBudget implements SendingBudget {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async take(
    appId: string,
    kind: SendingKind,
    now: Date,
  ): Promise<{ taken: true } | { taken: false; retryAfterSeconds: number }> {
    const { most, perSeconds } = SENDING_LIMITS[kind];
    const key = sendingKey(appId, kind);
    const at = Math.floor(now.getTime() / 1000);
    for (let attempt = 1; ; attempt += 1) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
      const window = Item as Window | undefined;
      const open = window !== undefined && at < window.window_start + perSeconds;
      if (open && window.sends >= most) {
        return { taken: false, retryAfterSeconds: Math.max(1, window.window_start + perSeconds - at) };
      }
      try {
        await this.db.send(
          new UpdateCommand(
            open
              ? {
                  TableName: this.table,
                  Key: key,
                  UpdateExpression: "SET sends = sends + :one",
                  ConditionExpression: "window_start = :start AND sends < :most",
                  ExpressionAttributeValues: { ":one": 1, ":start": window.window_start, ":most": most },
                }
              : {
                  // A new window, from this send: only while nobody started one meanwhile.
                  TableName: this.table,
                  Key: key,
                  UpdateExpression: "SET window_start = :at, sends = :one",
                  ConditionExpression: window ? "window_start = :start" : "attribute_not_exists(pk)",
                  ExpressionAttributeValues: {
                    ":at": at,
                    ":one": 1,
                    ...(window ? { ":start": window.window_start } : {}),
                  },
                },
          ),
        );
        return { taken: true };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException) || attempt === ATTEMPTS) throw error;
      }
    }
  }
}
