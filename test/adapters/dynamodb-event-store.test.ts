/**
 * The events table on DynamoDB Local. The due-deliveries index: pending events spread over its
 * sixteen partitions by their ids, and the tick's read finds the due ones in every partition, and
 * under the unsharded key events written before sharding still carry, oldest first. What only
 * the table needs (keys, index keys, expiry) is written by the store and never read back.
 */
import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { DynamoDbEventStore } from "#shared/adapters/dynamodb-event-store";
import { EVENTS_TABLE } from "#shared/declarations/tables";
import { newId } from "#shared/domain/ids";
import { PARTITION_SHARDS } from "#shared/domain/shards";
import type { EventItem } from "#shared/domain/webhook-events";
import { appId } from "../support/fakes.ts";
import { ownTables } from "../support/own-tables.ts";

const tables = ownTables();
const table = tables.name(EVENTS_TABLE);
let store: DynamoDbEventStore;

beforeAll(() => {
  store = new DynamoDbEventStore(tables.doc(), table);
});

/** The event's record as the table holds it. */
async function storedRecord(eventId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await tables
    .doc()
    .send(new GetCommand({ TableName: table, Key: { pk: `EVT#${eventId}`, sk: "EVENT" } }));
  return Item;
}

function pending(dueAt: string): EventItem {
  const eventId = newId("event");
  return {
    event_id: eventId,
    app_id: appId(1),
    environment: "sandbox",
    type: "webhook.test",
    body: "{}",
    created_at: dueAt,
    status: "pending",
    attempts: 0,
    next_attempt_at: dueAt,
  };
}

describe("the due-deliveries index", () => {
  it("spreads pending events over its partitions and reads the due ones from all of them, oldest first", async () => {
    const events = Array.from({ length: 160 }, (_, i) =>
      pending(`2026-11-26T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`),
    );
    for (const event of events) expect(await store.create(event)).toBe(true);
    // Written before sharding: the one partition every pending event shared.
    const old = pending("2026-11-26T09:59:00Z");
    const legacy = { ...old, pk: `EVT#${old.event_id}`, sk: "EVENT", due_shard: "due" };
    await tables.doc().send(new PutCommand({ TableName: table, Item: legacy }));
    const later = pending("2026-11-26T11:00:00Z");
    await store.create(later);

    const stored = await Promise.all(events.map((event) => storedRecord(event.event_id)));
    const partitions = new Set(stored.map((record) => record?.due_shard));
    expect(partitions.size).toBe(PARTITION_SHARDS);
    expect([...partitions].every((key) => /^due#\d{2}$/.test(String(key)))).toBe(true);

    const due = await store.due("2026-11-26T10:30:00Z", 500);
    expect(due.map((event) => event.event_id)).toEqual([legacy, ...events].map((event) => event.event_id));
    const oldest = await store.due("2026-11-26T10:30:00Z", 10);
    expect(oldest.map((event) => event.event_id)).toEqual(
      [legacy, ...events.slice(0, 9)].map((event) => event.event_id),
    );
  });
});

describe("what only the table needs", () => {
  it("keeps an event and its attempts 30 days after the event, and reads back only the event and the attempt", async () => {
    const event = pending("2026-11-26T10:00:00Z");
    await store.create(event);
    await store.recordAttempt(
      event,
      { attempted_at: "2026-11-26T10:00:01Z", url: "https://example.com/hook", outcome: "delivered", latency_ms: 12 },
      { status: "delivered" },
    );
    const expiry = Date.parse("2026-11-26T10:00:00Z") / 1000 + 30 * 86_400;
    expect(await storedRecord(event.event_id)).toMatchObject({ expires_at_epoch: expiry });
    const { Items = [] } = await tables.doc().send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :attempt)",
        ExpressionAttributeValues: { ":pk": `EVT#${event.event_id}`, ":attempt": "ATTEMPT#" },
      }),
    );
    expect(Items).toEqual([expect.objectContaining({ expires_at_epoch: expiry, attempt_app_id: appId(1) })]);

    expect(await store.get(event.event_id)).toEqual({
      ...event,
      status: "delivered",
      attempts: 1,
      next_attempt_at: undefined,
    });
    const { items } = await store.attemptsForApp(appId(1), {}, 100);
    expect(items.find((item) => item.event_id === event.event_id)).toEqual({
      event_id: event.event_id,
      attempt: 1,
      attempted_at: "2026-11-26T10:00:01Z",
      url: "https://example.com/hook",
      outcome: "delivered",
      latency_ms: 12,
    });
  });
});
