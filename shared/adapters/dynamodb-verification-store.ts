import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { VERIFICATIONS_TABLE } from "../declarations/tables.ts";
import type { IssuerState } from "../domain/issuer.ts";
import type { VerificationPosition } from "../domain/searches.ts";
import { canTransition } from "../domain/state.ts";
import { isoSeconds } from "../domain/time.ts";
import { appReference, ERASED_ATTRIBUTES, type VerificationItem } from "../domain/verification.ts";
import type {
  ReviewPosition,
  TransitionOutcome,
  TransitionRequest,
  VerificationQuery,
  VerificationStore,
} from "../ports/verification-store.ts";
import { queryPage, queryWithMore } from "./dynamodb-pages.ts";

/** The last whole second before `instant`: created_at has no finer part. */
function beforeInstant(instant: string): string {
  return isoSeconds(new Date(Math.ceil(Date.parse(instant) / 1000) * 1000 - 1000));
}

/** The verifications table. Every change of state goes through `transition`. */
export class DynamoDbVerificationStore implements VerificationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(item: VerificationItem): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: item,
        ConditionExpression: "attribute_not_exists(verification_id)",
      }),
    );
  }

  /**
   * Removes a verification that no client has been given: only while it is still new
   * (awaiting its upload, at its first sequence). Nothing happens when it is gone or has moved on.
   */
  async discardNew(id: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { verification_id: id },
          ConditionExpression: "#status = :awaiting AND #sequence = :first",
          ExpressionAttributeNames: { "#status": "status", "#sequence": "sequence" },
          ExpressionAttributeValues: { ":awaiting": "awaiting_upload", ":first": 1 },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async get(id: string): Promise<VerificationItem | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { verification_id: id }, ConsistentRead: true }),
    );
    return Item as VerificationItem | undefined;
  }

  /**
   * A conditional change of state: only a transition the state machine draws, only from the
   * state the caller saw, and `sequence` grows by one.
   */
  async transition(request: TransitionRequest): Promise<TransitionOutcome> {
    if (!canTransition(request.from, request.to)) {
      throw new Error(`Transition ${request.from} -> ${request.to} is not allowed`);
    }
    const names: Record<string, string> = { "#status": "status" };
    const values: Record<string, unknown> = {
      ":from": request.from,
      ":to": request.to,
      ":now": request.now,
      ":one": 1,
      ...request.condition?.values,
    };
    const sets = ["#status = :to", "#sequence = #sequence + :one", "updated_at = :now"];
    names["#sequence"] = "sequence";
    for (const [index, [name, value]] of Object.entries(request.set ?? {}).entries()) {
      names[`#s${index}`] = name;
      values[`:s${index}`] = value;
      sets.push(`#s${index} = :s${index}`);
    }
    // Leaving a state takes the item out of that state's sparse index.
    const sparseKey = { awaiting_upload: "awaiting_day", in_review: "review_day" }[request.from as string];
    const remove = sparseKey ? ` REMOVE ${sparseKey}` : "";
    const condition = `#status = :from${request.condition ? ` AND (${request.condition.expression})` : ""}`;
    return this.conditionalUpdate(
      new UpdateCommand({
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: `SET ${sets.join(", ")}${remove}`,
        ConditionExpression: `attribute_exists(verification_id) AND ${condition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
  }

  erase(request: { id: string; sequence: number; now: string; expire: boolean }): Promise<TransitionOutcome> {
    const sets = ["redacted_at = :now", "updated_at = :now", "#sequence = #sequence + :one", "checks = :none"];
    const removed: string[] = [...ERASED_ATTRIBUTES];
    if (request.expire) {
      sets.push("#status = :expired", "completed_at = :now");
      removed.push("awaiting_day");
    }
    return this.conditionalUpdate(
      new UpdateCommand({
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: `SET ${sets.join(", ")} REMOVE ${removed.join(", ")}`,
        ConditionExpression: `attribute_exists(verification_id) AND #sequence = :sequence AND attribute_not_exists(redacted_at)${request.expire ? " AND #status = :awaiting" : ""}`,
        ExpressionAttributeNames: { "#sequence": "sequence", ...(request.expire ? { "#status": "status" } : {}) },
        ExpressionAttributeValues: {
          ":now": request.now,
          ":one": 1,
          ":none": [],
          ":sequence": request.sequence,
          ...(request.expire ? { ":expired": "expired", ":awaiting": "awaiting_upload" } : {}),
        },
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
  }

  /** The issuer's state, over the state seen: none, or the same revision. */
  recordIssuer(request: {
    id: string;
    sequence: number;
    seen: IssuerState | undefined;
    state: IssuerState;
  }): Promise<TransitionOutcome> {
    const seen = request.seen ? "issuer.rev = :rev" : "attribute_not_exists(issuer)";
    return this.conditionalUpdate(
      new UpdateCommand({
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: "SET issuer = :state",
        ConditionExpression: `attribute_exists(verification_id) AND #status = :processing AND #sequence = :sequence AND ${seen}`,
        ExpressionAttributeNames: { "#status": "status", "#sequence": "sequence" },
        ExpressionAttributeValues: {
          ":state": request.state,
          ":processing": "processing",
          ":sequence": request.sequence,
          ...(request.seen ? { ":rev": request.seen.rev } : {}),
        },
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
  }

  /** One conditional write: the new item, or the item as it stood when the condition failed. */
  private async conditionalUpdate(command: UpdateCommand): Promise<TransitionOutcome> {
    try {
      const { Attributes } = await this.db.send(command);
      return { applied: true, item: Attributes as VerificationItem };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        // The document client does not translate errors: the old item arrives marshalled.
        return { applied: false, item: error.Item ? (unmarshall(error.Item) as VerificationItem) : undefined };
      }
      throw error;
    }
  }

  /** The claim is a lease: free, lapsed, or the caller's own (a renewal). */
  claimReview(request: {
    id: string;
    holder: { sub: string; username: string };
    now: string;
    expiresAt: string;
  }): Promise<TransitionOutcome> {
    return this.conditionalUpdate(
      new UpdateCommand({
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: "SET claimed_by_sub = :sub, claimed_by = :username, claim_expires_at = :until",
        ConditionExpression:
          "attribute_exists(verification_id) AND #status = :in_review AND (attribute_not_exists(claim_expires_at) OR claim_expires_at <= :now OR claimed_by_sub = :sub)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":sub": request.holder.sub,
          ":username": request.holder.username,
          ":until": request.expiresAt,
          ":now": request.now,
          ":in_review": "in_review",
        },
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
  }

  async inReviewOn(
    day: string,
    limit: number,
    after?: ReviewPosition,
  ): Promise<{ items: VerificationItem[]; more: boolean }> {
    const { indexName, partitionKey, sortKey } = VERIFICATIONS_TABLE.globalIndexes[1];
    return queryWithMore<VerificationItem>(this.db, limit, {
      TableName: this.table,
      IndexName: indexName,
      KeyConditionExpression: "#day = :day",
      ExpressionAttributeNames: { "#day": partitionKey.name },
      ExpressionAttributeValues: { ":day": day },
      ...(after
        ? {
            ExclusiveStartKey: {
              verification_id: after.id,
              [partitionKey.name]: day,
              [sortKey.name]: after.deadline,
            },
          }
        : {}),
    });
  }

  /**
   * An app's verifications, newest first: by reference from its index when one is given, else
   * from the app's index; the creation window is the key condition, the status a filter.
   */
  async listForApp(
    query: VerificationQuery,
    limit: number,
    after?: VerificationPosition,
  ): Promise<{ items: VerificationItem[]; last: VerificationPosition | undefined }> {
    const index = VERIFICATIONS_TABLE.globalIndexes[query.reference === undefined ? 2 : 3];
    const partition = query.reference === undefined ? query.appId : appReference(query.appId, query.reference);
    const names: Record<string, string> = { "#partition": index.partitionKey.name };
    const values: Record<string, unknown> = { ":partition": partition };
    // created_after is inclusive, created_before exclusive; created_at is in whole seconds.
    const from = query.createdAfter === undefined ? undefined : isoSeconds(new Date(query.createdAfter));
    const before = query.createdBefore === undefined ? undefined : beforeInstant(query.createdBefore);
    const window =
      from !== undefined && before !== undefined
        ? "BETWEEN :from AND :before"
        : from !== undefined
          ? ">= :from"
          : before !== undefined
            ? "<= :before"
            : undefined;
    if (from !== undefined) values[":from"] = from;
    if (before !== undefined) values[":before"] = before;
    if (window) names["#created"] = "created_at";
    const keyCondition = `#partition = :partition${window ? ` AND #created ${window}` : ""}`;
    let filter: string | undefined;
    if (query.status !== undefined) {
      names["#status"] = "status";
      values[":now"] = query.now;
      values[":awaiting"] = "awaiting_upload";
      if (query.status === "expired") {
        values[":expired"] = "expired";
        filter = "#status = :expired OR (#status = :awaiting AND upload_deadline <= :now)";
      } else if (query.status === "awaiting_upload") {
        filter = "#status = :awaiting AND upload_deadline > :now";
      } else {
        values[":status"] = query.status;
        filter = "#status = :status";
      }
    }
    const page = await queryPage<VerificationItem>(this.db, limit, {
      TableName: this.table,
      IndexName: index.indexName,
      KeyConditionExpression: keyCondition,
      ...(filter ? { FilterExpression: filter } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      ...(after
        ? {
            ExclusiveStartKey: {
              verification_id: after.id,
              [index.partitionKey.name]: partition,
              created_at: after.created_at,
            },
          }
        : {}),
    });
    const last = page.lastKey as { verification_id: string; created_at: string } | undefined;
    return { items: page.items, last: last ? { created_at: last.created_at, id: last.verification_id } : undefined };
  }

  /** Verifications still awaiting an upload whose deadline is at or before `now`, in one partition (a day and its shard). */
  awaitingPastDeadline(partition: string, now: string): AsyncGenerator<VerificationItem> {
    return this.pastDeadline(0, partition, now);
  }

  /** Verifications in review whose review window, closing on UTC day `day`, closed at or before `now`. */
  inReviewPastDeadline(day: string, now: string): AsyncGenerator<VerificationItem> {
    return this.pastDeadline(1, day, now);
  }

  private async *pastDeadline(index: 0 | 1, day: string, now: string): AsyncGenerator<VerificationItem> {
    const { indexName, partitionKey, sortKey } = VERIFICATIONS_TABLE.globalIndexes[index];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        IndexName: indexName,
        KeyConditionExpression: "#day = :day AND #deadline <= :now",
        ExpressionAttributeNames: { "#day": partitionKey.name, "#deadline": sortKey.name },
        ExpressionAttributeValues: { ":day": day, ":now": now },
      },
    );
    for await (const page of pages) yield* (page.Items ?? []) as VerificationItem[];
  }
}
