import { randomUUID } from "node:crypto";
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { EVENTS_TABLE } from "../declarations/tables.ts";
import { ID_PATTERNS } from "../domain/ids.ts";
import { decodeCursor, encodeCursor } from "../domain/lists.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import { partitionsOf, shardedKey } from "../domain/shards.ts";
import { type AttemptItem, type EventItem, KEEP_EVENTS_DAYS, nextAttemptNumber } from "../domain/webhook-events.ts";
import * as z from "../domain/zod.ts";
import type { AfterAttempt, AttemptRecord, EventStore } from "../ports/event-store.ts";
import { queryPage } from "./dynamodb-pages.ts";
import { type AuditLinker, linked, refusedChange, writeTogether } from "./dynamodb-writes.ts";

const { indexes, ttlAttribute } = EVENTS_TABLE;
const DUE_SHARD = indexes.dueDeliveries.partitionKey.name;
const ATTEMPT_APP = indexes.attemptsByApp.partitionKey.name;

/** The due-deliveries index's key, sharded by the event id (`shards.ts`): every pending event would share it. */
const DUE = "due";
const dueShard = (event: Pick<EventItem, "event_id">) => shardedKey(DUE, event.event_id);

/** An event's key: its attempts share its partition. */
const eventKey = (eventId: string) => ({ pk: `EVT#${eventId}`, sk: "EVENT" });

/** When the table's TTL deletes an event or its attempts: `KEEP_EVENTS_DAYS` after the event. */
const expiresAt = (event: Pick<EventItem, "created_at">) =>
  Math.floor(Date.parse(event.created_at) / 1000) + KEEP_EVENTS_DAYS * 86_400;

/** What only the table needs: the keys, the sparse keys of the indexes and the record's expiry. */
const STORED_ONLY = ["pk", "sk", DUE_SHARD, ATTEMPT_APP, ttlAttribute] as const;

/** A record as the callers know it: without what only the table needs. */
function fromStored<T>(stored: Record<string, unknown>): T {
  const item = { ...stored };
  for (const name of STORED_ONLY) delete item[name];
  return item as T;
}

/** An attempt's time as the events table keeps it: UTC, whole seconds. */
const attemptTime = z.iso.datetime({ precision: 0 });
/** An attempt's keys as the events table writes them: its event's, and its time, number and round. */
const ATTEMPT_PK = new RegExp(`^EVT#${ID_PATTERNS.event.source.slice(1)}`);
const ATTEMPT_SK = /^ATTEMPT#(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)#\d{2,4}(#[0-9a-f]{8})?$/;

/**
 * Where a page of attempts ended, as its cursor carries it: the last attempt's time and keys (the
 * index order), of the shape the events table writes them, its time the one in its sort key;
 * anything else would be a starting key the table refuses.
 */
const attemptPositionSchema = z
  .strictObject({
    attempted_at: attemptTime,
    pk: z.string().check(z.regex(ATTEMPT_PK)),
    sk: z.string().check(z.regex(ATTEMPT_SK)),
  })
  .check(z.refine((position) => ATTEMPT_SK.exec(position.sk)?.[1] === position.attempted_at));
type AttemptPosition = z.infer<typeof attemptPositionSchema>;

/** The events table: events, their delivery schedule and their attempts; a replay by a person recorded through `audit`. */
export class DynamoDbEventStore implements EventStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit?: AuditLinker,
  ) {}

  /** Writes the event unless it exists: false when it was already recorded. */
  async create(event: EventItem, audit?: AuditRecord): Promise<boolean> {
    const put = {
      TableName: this.table,
      Item: {
        ...event,
        ...eventKey(event.event_id),
        ...(event.status === "pending" ? { [DUE_SHARD]: dueShard(event) } : {}),
        [ttlAttribute]: expiresAt(event),
      },
      ConditionExpression: "attribute_not_exists(pk)",
    };
    try {
      if (audit) await writeTogether(this.db, [{ Put: put }], linked(this.audit, audit));
      else await this.db.send(new PutCommand(put));
      return true;
    } catch (error) {
      if (refusedChange(error).found) return false;
      throw error;
    }
  }

  async get(eventId: string): Promise<EventItem | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: eventKey(eventId), ConsistentRead: true }),
    );
    return Item && fromStored<EventItem>(Item);
  }

  /** Pending events whose next attempt is due at `now`, oldest first: every partition asked at once. */
  async due(now: string, limit: number): Promise<EventItem[]> {
    const pages = await Promise.all(
      partitionsOf(DUE).map(async (partition) => {
        const { Items = [] } = await this.db.send(
          new QueryCommand({
            TableName: this.table,
            IndexName: indexes.dueDeliveries.indexName,
            KeyConditionExpression: "#due = :due AND next_attempt_at <= :now",
            ExpressionAttributeNames: { "#due": DUE_SHARD },
            ExpressionAttributeValues: { ":due": partition, ":now": now },
            Limit: limit,
          }),
        );
        return Items.map((item) => fromStored<EventItem>(item));
      }),
    );
    return pages
      .flat()
      .sort((a, b) => String(a.next_attempt_at).localeCompare(String(b.next_attempt_at)))
      .slice(0, limit);
  }

  /**
   * Takes the due attempt for this caller: moves `next_attempt_at` to `leaseUntil` unless
   * another caller moved it first. False when someone else has it.
   */
  async claim(event: EventItem, leaseUntil: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: eventKey(event.event_id),
          UpdateExpression: "SET next_attempt_at = :lease",
          ConditionExpression: "#status = :pending AND next_attempt_at = :seen AND attempts = :attempts",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: {
            ":lease": leaseUntil,
            ":pending": "pending",
            ":seen": event.next_attempt_at,
            ":attempts": event.attempts,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /**
   * Records an attempt and what follows it, together: delivered, parked, or pending again at
   * `nextAttemptAt`. Recorded once: a second record of the same attempt number is refused.
   */
  async recordAttempt(event: EventItem, attempt: AttemptRecord, next: AfterAttempt): Promise<void> {
    const number = event.attempts + 1;
    const overall = nextAttemptNumber(event);
    const pending = next.status === "pending";
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.table,
              Item: {
                ...attempt,
                event_id: event.event_id,
                attempt: overall,
                pk: eventKey(event.event_id).pk,
                // Two rounds' attempts may share a second: the suffix keeps them apart.
                sk: `ATTEMPT#${attempt.attempted_at}#${String(overall).padStart(2, "0")}#${randomUUID().slice(0, 8)}`,
                [ATTEMPT_APP]: event.app_id,
                [ttlAttribute]: expiresAt(event),
              },
            },
          },
          {
            Update: {
              TableName: this.table,
              Key: eventKey(event.event_id),
              UpdateExpression: pending
                ? "SET #status = :status, attempts = :number, next_attempt_at = :next, #due = :due"
                : "SET #status = :status, attempts = :number REMOVE next_attempt_at, #due",
              ConditionExpression: "attempts = :previous",
              ExpressionAttributeNames: { "#status": "status", "#due": DUE_SHARD },
              ExpressionAttributeValues: {
                ":status": next.status,
                ":number": number,
                ":previous": event.attempts,
                ...(pending ? { ":next": next.nextAttemptAt, ":due": dueShard(event) } : {}),
              },
            },
          },
        ],
      }),
    );
  }

  /** Marks an event that has nowhere to go: the app has no webhook destination. */
  async markNoDestination(event: EventItem): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: eventKey(event.event_id),
        UpdateExpression: "SET #status = :status REMOVE next_attempt_at, #due",
        ExpressionAttributeNames: { "#status": "status", "#due": DUE_SHARD },
        ExpressionAttributeValues: { ":status": "no_destination" },
      }),
    );
  }

  /** Starts a new round of attempts, the first due at `dueAt`; the attempts made so far keep their numbers. */
  async requeue(event: EventItem, dueAt: string, audit?: AuditRecord): Promise<EventItem> {
    const { updated } = await writeTogether(
      this.db,
      [
        {
          Update: {
            TableName: this.table,
            Key: eventKey(event.event_id),
            UpdateExpression:
              "SET #status = :pending, attempts_before = if_not_exists(attempts_before, :zero) + attempts, attempts = :zero, next_attempt_at = :now, #due = :due",
            ExpressionAttributeNames: { "#status": "status", "#due": DUE_SHARD },
            ExpressionAttributeValues: { ":pending": "pending", ":zero": 0, ":now": dueAt, ":due": dueShard(event) },
          },
        },
      ],
      linked(this.audit, audit),
    );
    // A transaction answers no item: read the one it wrote.
    return updated ? fromStored<EventItem>(updated) : ((await this.get(event.event_id)) as EventItem);
  }

  /** An app's attempts, newest first, from the attempts index; a filter reads on until the page is full. */
  async attemptsForApp(
    appId: string,
    filter: { outcome?: AttemptItem["outcome"] },
    limit: number,
    after?: string,
  ): Promise<{ items: AttemptItem[]; last: string | undefined }> {
    const start = after === undefined ? undefined : decodeCursor(after, attemptPositionSchema);
    const page = await queryPage<Record<string, unknown>>(this.db, limit, {
      TableName: this.table,
      IndexName: indexes.attemptsByApp.indexName,
      KeyConditionExpression: "#app = :app",
      ExpressionAttributeNames: { "#app": ATTEMPT_APP },
      ...(filter.outcome
        ? {
            FilterExpression: "outcome = :outcome",
            ExpressionAttributeValues: { ":app": appId, ":outcome": filter.outcome },
          }
        : { ExpressionAttributeValues: { ":app": appId } }),
      ScanIndexForward: false,
      ...(start ? { ExclusiveStartKey: { [ATTEMPT_APP]: appId, ...start } } : {}),
    });
    const last = page.lastKey as AttemptPosition | undefined;
    return {
      items: page.items.map((item) => fromStored<AttemptItem>(item)),
      last: last ? encodeCursor({ attempted_at: last.attempted_at, pk: last.pk, sk: last.sk }) : undefined,
    };
  }

  /** An app's events newest first, from the events index; a type filter reads on until the page is full. */
  async recentEventsForApp(
    appId: string,
    filter: { since: string; type?: EventItem["type"] },
    limit: number,
    before?: string,
  ): Promise<{ items: EventItem[]; last: string | undefined }> {
    const page = await queryPage<Record<string, unknown>>(this.db, limit, {
      TableName: this.table,
      IndexName: indexes.byApp.indexName,
      KeyConditionExpression: "app_id = :app AND event_id >= :since",
      ...(filter.type
        ? {
            FilterExpression: "#type = :type",
            ExpressionAttributeNames: { "#type": "type" },
            ExpressionAttributeValues: { ":app": appId, ":since": filter.since, ":type": filter.type },
          }
        : { ExpressionAttributeValues: { ":app": appId, ":since": filter.since } }),
      ScanIndexForward: false,
      ...(before ? { ExclusiveStartKey: { app_id: appId, event_id: before, ...eventKey(before) } } : {}),
    });
    const last = page.lastKey?.event_id;
    return {
      items: page.items.map((item) => fromStored<EventItem>(item)),
      last: typeof last === "string" ? last : undefined,
    };
  }

  /** An event's attempts share its partition, after the event's own item, in the order they were made. */
  async attemptsOf(eventId: string): Promise<AttemptItem[]> {
    const attempts: AttemptItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :attempt)",
          ExpressionAttributeValues: { ":pk": eventKey(eventId).pk, ":attempt": "ATTEMPT#" },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      attempts.push(...(page.Items ?? []).map((item) => fromStored<AttemptItem>(item)));
      start = page.LastEvaluatedKey;
    } while (start);
    return attempts;
  }

  /** An app's events in the order they happened (event ids sort by time), from the events index. */
  async eventsForApp(appId: string, afterId: string, limit: number): Promise<EventItem[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: indexes.byApp.indexName,
        KeyConditionExpression: "app_id = :app AND event_id > :after",
        ExpressionAttributeValues: { ":app": appId, ":after": afterId },
        Limit: limit,
      }),
    );
    return Items.map((item) => fromStored<EventItem>(item));
  }

  /** A verification's events from its index: a handful per verification, so every page is read. */
  async eventsOf(verificationId: string): Promise<EventItem[]> {
    const events: EventItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: indexes.byVerification.indexName,
          KeyConditionExpression: "verification_id = :id",
          ExpressionAttributeValues: { ":id": verificationId },
          ExclusiveStartKey: start,
        }),
      );
      events.push(...(page.Items ?? []).map((item) => fromStored<EventItem>(item)));
      start = page.LastEvaluatedKey;
    } while (start);
    return events;
  }

  async replaceBody(eventId: string, body: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: eventKey(eventId),
        UpdateExpression: "SET body = :body",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":body": body },
      }),
    );
  }
}
