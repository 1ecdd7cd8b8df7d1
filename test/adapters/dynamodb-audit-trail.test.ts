/**
 * The audit trail on DynamoDB Local: records land whatever the number of writers, each expires
 * with its month and is printed whole, and a change (an app's, a test event) is written with its
 * record or not at all. Tampering and sealing: `audit-tampering.test.ts`.
 */
import { GetCommand, PutCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { ulid } from "ulid";
import { beforeAll, describe, expect, it } from "vitest";
import { DynamoDbAppStore } from "#shared/adapters/dynamodb-app-store";
import { DynamoDbAuditTrail } from "#shared/adapters/dynamodb-audit-trail";
import { DynamoDbEventStore } from "#shared/adapters/dynamodb-event-store";
import { APPS_TABLE, AUDIT_TABLE, EVENTS_TABLE } from "#shared/declarations/tables";
import type { KeyItem } from "#shared/domain/apps";
import {
  AUDIT_RETENTION_SECONDS,
  type AuditContext,
  auditChain,
  auditExpiry,
  auditMonth,
  auditPartition,
  auditPlace,
  auditRecord,
} from "#shared/domain/audit";
import { displayPrefix, generateApiKey, hashApiKey } from "#shared/domain/credentials";
import { StaleAppError } from "#shared/domain/errors";
import { newId } from "#shared/domain/ids";
import type { AuditRecord } from "#shared/domain/responses/audit";
import { APPS_PER_ORGANIZATION } from "#shared/domain/tenant-limits";
import { type EventItem, TEST_EVENT_TYPE } from "#shared/domain/webhook-events";
import { anApp, appId } from "../support/fakes.ts";
import { ownTables } from "../support/own-tables.ts";

const tables = ownTables();
let trail: DynamoDbAuditTrail;

beforeAll(() => {
  trail = new DynamoDbAuditTrail(tables.doc(), tables.name(AUDIT_TABLE));
});

const context = (sub: string): AuditContext => ({
  actor: { pool: "staff", sub, username: `user-${sub}` },
  requestId: `req-${sub}`,
  sourceIp: "192.0.2.1",
});

/** A new API key of the app, as the store keeps it. */
function keyOf(app: string): { key: KeyItem } {
  const apiKey = generateApiKey("sandbox");
  return {
    key: {
      key_hash: hashApiKey(apiKey),
      kind: "key",
      key_app_id: app,
      environment: "sandbox",
      prefix: displayPrefix(apiKey),
      app_status: "active",
      created_at: "2026-11-26T12:00:00Z",
    },
  };
}

/** A record made now, of a view by `sub`. */
const viewBy = (sub: string, n: number) =>
  auditRecord(context(sub), new Date(), { action: "verification.viewed", detail: { n: String(n) } });

describe("records", () => {
  it("are each one put: twenty writers at once all land, none waiting on another", async () => {
    const records = Array.from({ length: 20 }, (_, n) => viewBy(`writer-${n}`, n));
    await Promise.all(records.map((record) => trail.append(record)));
    const month = auditMonth(records[0]?.audit_id ?? "");
    const kept = new Set((await trail.prints(month)).map((print) => print.audit_id));
    for (const record of records) expect(kept).toContain(record.audit_id);
  });

  it("expire with their month, the expiry part of what their print covers", async () => {
    const record = viewBy("expiry", 1);
    await trail.append(record);
    const month = auditMonth(record.audit_id);
    const key = { month: auditPlace(record), audit_id: record.audit_id };
    const { Item } = await tables.doc().send(new GetCommand({ TableName: tables.name(AUDIT_TABLE), Key: key }));
    expect(Item?.expires_at_epoch).toBe(auditExpiry(record.audit_id));
    const [year, number] = month.split("-").map(Number) as [number, number];
    expect(Item?.expires_at_epoch).toBe(Date.UTC(year, number, 1) / 1000 + AUDIT_RETENTION_SECONDS);
    const before = (await trail.prints(month)).find((print) => print.audit_id === record.audit_id)?.print;
    await tables
      .doc()
      .send(new PutCommand({ TableName: tables.name(AUDIT_TABLE), Item: { ...Item, expires_at_epoch: 1 } }));
    const after = (await trail.prints(month)).find((print) => print.audit_id === record.audit_id)?.print;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});

describe("chains", () => {
  /** Two organisations whose records land in different shares of the portal's chains. */
  function twoOrganizations(): [string, string] {
    const chainOf = (organizationId: string) =>
      auditChain({ actor: { pool: "portal", sub: "s", username: "u" }, organization_id: organizationId });
    const first = "org_01JQAAAAAAAAAAAAAAAAAAAAAA";
    for (let n = 0; n < 100; n += 1) {
      const other = `org_01JQAAAAAAAAAAAAAAAAAAAA${String(n).padStart(2, "0")}`;
      if (chainOf(other) !== chainOf(first)) return [first, other];
    }
    throw new Error("every organisation landed in one share");
  }

  /** A record by `context` made at `at` (epoch ms), its id carrying that time. */
  const madeAt = (who: AuditContext, at: number, action: AuditRecord["action"] = "verification.viewed") => ({
    ...auditRecord(who, new Date(at), { action }),
    audit_id: `aud_${ulid(at)}`,
  });

  it("keeps staff's, operators' and each organisation's records in partitions of their own", async () => {
    const [one, two] = twoOrganizations();
    const people: AuditContext[] = [
      context("chains-staff"),
      { ...context("chains-ops"), actor: { pool: "operator", sub: "chains-ops", username: "ops" } },
      { ...context("chains-a"), actor: { pool: "portal", sub: "chains-a", username: "a" }, organizationId: one },
      { ...context("chains-b"), actor: { pool: "portal", sub: "chains-b", username: "b" }, organizationId: two },
    ];
    const records = people.map((who, n) => madeAt(who, Date.now() - 10_000 + n));
    await Promise.all(records.map((record) => trail.append(record)));
    const { Items = [] } = await tables.doc().send(
      new ScanCommand({
        TableName: tables.name(AUDIT_TABLE),
        FilterExpression: "begins_with(request_id, :chains)",
        ExpressionAttributeValues: { ":chains": "req-chains-" },
      }),
    );
    const month = auditMonth(records[0]?.audit_id ?? "");
    expect(new Map(Items.map((item) => [item.audit_id, item.month]))).toEqual(
      new Map(records.map((record) => [record.audit_id, auditPartition(month, auditChain(record))])),
    );
    expect(new Set(Items.map((item) => item.month)).size).toBe(4);
  });

  it("lists every chain of every month newest first, page after page, and each actor's the same", async () => {
    const [one] = twoOrganizations();
    const staff = context("pages-staff");
    const owner: AuditContext = {
      ...context("pages-owner"),
      actor: { pool: "portal", sub: "pages-owner", username: "owner" },
      organizationId: one,
    };
    // Last month's and this month's, the two chains' records interleaved in time.
    const thisMonth = Date.parse(`${new Date().toISOString().slice(0, 7)}-01T00:00:00Z`);
    const times = [-3_000, -2_000, -1_000, 1_000, 2_000, 3_000, 4_000].map((offset) => thisMonth + offset);
    const records = times.map((at, n) => madeAt(n % 2 === 0 ? staff : owner, at, n === 3 ? "audit.viewed" : undefined));
    await Promise.all(records.map((record) => trail.append(record)));
    const ours = (page: AuditRecord[]) =>
      page.filter((record) => records.some((one) => one.audit_id === record.audit_id)).map((record) => record.audit_id);
    const narrowing = { since: new Date(thisMonth - 3_000), until: new Date(thisMonth + 4_001) };

    const newestFirst = records.map((record) => record.audit_id).reverse();
    const listed: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await trail.page({}, 3, before, narrowing);
      listed.push(...ours(page.records));
      before = page.records.at(-1)?.audit_id;
      if (!page.more) break;
    }
    expect(listed).toEqual(newestFirst);

    const owners: string[] = [];
    before = undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await trail.page({ actorSub: "pages-owner" }, 2, before, narrowing);
      owners.push(...ours(page.records));
      before = page.records.at(-1)?.audit_id;
      if (!page.more) break;
    }
    expect(owners).toEqual(newestFirst.filter((id) => records.find((r) => r.audit_id === id)?.actor.pool === "portal"));
    expect(ours((await trail.page({}, 10, undefined, { ...narrowing, action: "audit.viewed" })).records)).toEqual([
      records[3]?.audit_id,
    ]);
  });
});

describe("a change and its record", () => {
  it("are written together, and a change whose condition fails leaves no record", async () => {
    const apps = new DynamoDbAppStore(tables.doc(), tables.name(APPS_TABLE), trail);
    const app = anApp({ app_id: appId(7) });
    const created = auditRecord(context("owner"), new Date(), { action: "app.created", app_id: app.app_id });
    const { key } = keyOf(app.app_id);
    await apps.createWithKey(app, key, created, APPS_PER_ORGANIZATION);
    expect((await trail.page({}, 50)).records.map((record) => record.audit_id)).toContain(created.audit_id);

    // The same app again: its condition fails, and so nothing of the attempt is kept.
    const again = auditRecord(context("owner"), new Date(), { action: "app.created", app_id: app.app_id });
    await expect(apps.createWithKey(app, keyOf(app.app_id).key, again, APPS_PER_ORGANIZATION)).rejects.toThrow();
    expect((await trail.page({}, 50)).records.map((record) => record.audit_id)).not.toContain(again.audit_id);
  });

  it("is not written when its record cannot be: the record's id is taken", async () => {
    const apps = new DynamoDbAppStore(tables.doc(), tables.name(APPS_TABLE), trail);
    const app = anApp({ app_id: appId(8) });
    await apps.createWithKey(app, keyOf(app.app_id).key, undefined, APPS_PER_ORGANIZATION);
    const taken = viewBy("someone", 99);
    await trail.append(taken);

    // A record whose id another record holds: the transaction fails, the webhook URL stays.
    const change = {
      ...auditRecord(context("owner"), new Date(), { action: "webhook.updated" }),
      audit_id: taken.audit_id,
    };
    await expect(
      apps.setWebhookUrl(app.app_id, "https://example.com/hook", "2026-11-26T12:00:00Z", change),
    ).rejects.toThrow();
    expect((await apps.getApp(app.app_id))?.webhook_url).toBe(app.webhook_url);
  });

  it("keeps a test event with the record of who sent it, or neither", async () => {
    const events = new DynamoDbEventStore(tables.doc(), tables.name(EVENTS_TABLE), trail);
    const event = (n: number): EventItem => ({
      event_id: newId("event"),
      app_id: appId(10),
      environment: "sandbox",
      type: TEST_EVENT_TYPE,
      body: JSON.stringify({ n }),
      created_at: "2026-11-26T12:00:00Z",
      status: "pending",
      attempts: 0,
      next_attempt_at: "2026-11-26T12:00:30Z",
    });
    const tested = (eventId: string) =>
      auditRecord(context("owner"), new Date(), { action: "webhook.tested", detail: { event_id: eventId } });
    const sent = event(1);
    const record = tested(sent.event_id);
    expect(await events.create(sent, record)).toBe(true);
    expect(await events.get(sent.event_id)).toBeDefined();
    expect((await trail.page({}, 100)).records.map((kept) => kept.audit_id)).toContain(record.audit_id);

    // A record whose id another record holds: the transaction fails, and no event is kept.
    const lost = event(2);
    await expect(events.create(lost, { ...tested(lost.event_id), audit_id: record.audit_id })).rejects.toThrow();
    expect(await events.get(lost.event_id)).toBeUndefined();
  });

  it("answers a lost race as a stale app, writing no record", async () => {
    const apps = new DynamoDbAppStore(tables.doc(), tables.name(APPS_TABLE), trail);
    const app = anApp({ app_id: appId(9) });
    await apps.createWithKey(app, keyOf(app.app_id).key, undefined, APPS_PER_ORGANIZATION);
    const moved = { ...app, webhook_secret_sealed: "sealed-by-someone-else" };
    const record = auditRecord(context("owner"), new Date(), { action: "webhook.secret_rotated", app_id: app.app_id });
    await expect(
      apps.rotateWebhookSecret(moved, "new", "2026-11-27T12:00:00Z", "2026-11-26T12:00:00Z", record),
    ).rejects.toBeInstanceOf(StaleAppError);
    expect((await trail.page({}, 100)).records.map((kept) => kept.audit_id)).not.toContain(record.audit_id);
  });
});
