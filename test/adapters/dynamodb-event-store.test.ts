/**
 * The due-deliveries index on DynamoDB Local: pending events spread over its sixteen
 * partitions by their ids, and the tick's read finds the due ones in every partition, and
 * under the unsharded key events written before sharding still carry, oldest first.
 */
import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { documentClientOf } from "#shared/adapters/aws-clients";
import { DynamoDbEventStore } from "#shared/adapters/dynamodb-event-store";
import { EVENTS_TABLE } from "#shared/declarations/tables";
import { newId } from "#shared/domain/ids";
import { PARTITION_SHARDS } from "#shared/domain/shards";
import { type EventItem, eventPk } from "#shared/domain/webhook-events";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../local/engines.ts";
import { ensureTables, tableName } from "../../local/resources.ts";
import { appId } from "../support/fakes.ts";

const prefix = `t${randomUUID().slice(0, 8)}-`;
const table = tableName(prefix, EVENTS_TABLE);
let raw: DynamoDBClient;
let store: DynamoDbEventStore;

beforeAll(async () => {
  raw = new DynamoDBClient({
    endpoint: inject("engines").dynamoEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  await ensureTables(raw, prefix);
  store = new DynamoDbEventStore(documentClientOf(raw), table);
});
afterAll(() => raw.destroy());

function pending(dueAt: string): Omit<EventItem, "due_shard"> {
  const eventId = newId("event");
  return {
    pk: eventPk(eventId),
    sk: "EVENT",
    event_id: eventId,
    app_id: appId(1),
    environment: "sandbox",
    type: "webhook.test",
    body: "{}",
    created_at: dueAt,
    status: "pending",
    attempts: 0,
    next_attempt_at: dueAt,
    expires_at_epoch: 2_000_000_000,
  };
}

describe("the due-deliveries index", () => {
  it("spreads pending events over its partitions and reads the due ones from all of them, oldest first", async () => {
    const events = Array.from({ length: 160 }, (_, i) =>
      pending(`2026-11-26T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`),
    );
    for (const event of events) expect(await store.create(event)).toBe(true);
    // Written before sharding: the one partition every pending event shared.
    const legacy = { ...pending("2026-11-26T09:59:00Z"), due_shard: "due" };
    await documentClientOf(raw).send(new PutCommand({ TableName: table, Item: legacy }));
    const later = pending("2026-11-26T11:00:00Z");
    await store.create(later);

    const stored = await Promise.all(events.map((event) => store.get(event.event_id)));
    const partitions = new Set(stored.map((event) => event?.due_shard));
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
