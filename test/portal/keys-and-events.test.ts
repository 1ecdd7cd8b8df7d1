/**
 * The portal's tools for developers over HTTP, on the real engines: keys with a name, the time
 * they were last used and the time they were revoked; an app's events with what they sent and
 * every attempt, numbered across replays, also events from before a destination was set, which
 * can then be sent; and another organisation reaches none of it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { keyPk } from "#shared/adapters/dynamodb-key-lookup";
import { hashApiKey } from "#shared/domain/credentials";
import { encodeCursor } from "#shared/domain/lists";
import { appEventSchema, type LookupMatch } from "#shared/domain/responses/portal";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { isoSeconds } from "#shared/domain/time";
import type { PortalUser } from "../support/api.ts";
import {
  Customer,
  call,
  callAs,
  expectProblem,
  expectVerification,
  type Reply,
  upload,
  validBody,
} from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";
import { until } from "../support/until.ts";

const fx = useApiFixture({ pipeline: true, receiver: true });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

let owner: PortalUser;
let developer: PortalUser;
let viewer: PortalUser;
let stranger: PortalUser;

beforeAll(async () => {
  owner = await fx.api.portalUser("owner");
  [developer, viewer, stranger] = await Promise.all([
    fx.api.portalUser("developer", owner.organizationId),
    fx.api.portalUser("viewer", owner.organizationId),
    fx.api.portalUser("owner"),
  ]);
});

const portal = (user: PortalUser, method: string, route: string, body?: unknown): Promise<Reply> =>
  callAs(fx.api.portalUrl, user.accessToken, method, route, body);

interface KeyView {
  key_id: string;
  prefix: string;
  name: string | null;
  status: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

async function keysOf(appId: string): Promise<KeyView[]> {
  const reply = await portal(viewer, "GET", "/portal/v1/apps?limit=100");
  expect(reply.status, reply.text).toBe(200);
  const app = (reply.json as { data: { app_id: string; keys: KeyView[] }[] }).data.find((one) => one.app_id === appId);
  if (!app) throw new Error(`No app ${appId} in the list`);
  return app.keys;
}

/** The organisation's audit records, oldest first. */
async function auditRecords(organizationId: string): Promise<Record<string, unknown>[]> {
  const records = await fx.api.scan(fx.api.tables.audit);
  return records
    .filter((record) => record.organization_id === organizationId)
    .sort((a, b) => String(a.audit_id).localeCompare(String(b.audit_id)));
}

async function auditActions(organizationId: string): Promise<string[]> {
  return (await auditRecords(organizationId)).map((record) => String(record.action));
}

async function auditRecordsOf(organizationId: string, action: string): Promise<Record<string, unknown>[]> {
  return (await auditRecords(organizationId)).filter((record) => record.action === action);
}

describe("keys", () => {
  it("names the first key and a rotated one, renames either, and shows last use and revocation", async () => {
    const created = await portal(developer, "POST", "/portal/v1/apps", { name: "Named", key_name: "Web servers" });
    expect(created.status, created.text).toBe(201);
    const app = created.json as { app_id: string; api_key: string; keys: KeyView[] };
    expect(app.keys).toEqual([expect.objectContaining({ name: "Web servers", last_used_at: null, revoked_at: null })]);
    const first = app.keys[0] as KeyView;

    // Used once on the public API: the authorizer records it.
    const used = await call(fx.api.baseUrl, "GET", "/v1/verifications", { headers: { "X-API-Key": app.api_key } });
    expect(used.status).toBe(200);
    const [afterUse] = await keysOf(app.app_id);
    expect(afterUse?.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const rotated = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/keys`, {
      grace_seconds: 3600,
      name: "Batch jobs",
    });
    expect(rotated.status, rotated.text).toBe(201);
    expect(rotated.json).toMatchObject({ key: { name: "Batch jobs", last_used_at: null } });

    const renamed = await portal(developer, "PATCH", `/portal/v1/apps/${app.app_id}/keys/${first.key_id}`, {
      name: "  Old web servers ",
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ app_id: app.app_id, key: { key_id: first.key_id, name: "Old web servers" } });

    const revoked = await portal(developer, "DELETE", `/portal/v1/apps/${app.app_id}/keys/${first.key_id}`);
    expect(revoked.status, revoked.text).toBe(200);
    // Both keys were made within a second or so: the list's order between them is not the point.
    const keys = await keysOf(app.app_id);
    expect(keys.map((key) => [key.name, key.status]).sort()).toEqual([
      ["Batch jobs", "active"],
      ["Old web servers", "revoked"],
    ]);
    const old = keys.find((key) => key.key_id === first.key_id);
    expect(old?.revoked_at).toBe((revoked.json as { key: KeyView }).key.revoked_at);
    expect(old?.last_used_at).toBe(afterUse?.last_used_at);
    // A revoked key can still be renamed: its name says what it was.
    expect(
      (await portal(developer, "PATCH", `/portal/v1/apps/${app.app_id}/keys/${first.key_id}`, { name: "Gone" })).status,
    ).toBe(200);

    const actions = await auditActions(owner.organizationId);
    expect(actions.filter((action) => action === "key.renamed")).toHaveLength(2);
  });

  it("refuses a bad name on creation, rotation and rename (422 on the field), and an unknown key (404)", async () => {
    const created = await portal(developer, "POST", "/portal/v1/apps", { name: "Refusals" });
    const app = created.json as { app_id: string; keys: KeyView[] };
    const keyId = app.keys[0]?.key_id;
    const blank = expectProblem(
      await portal(developer, "POST", "/portal/v1/apps", { name: "x", key_name: "   " }),
      422,
      "validation_failed",
    );
    expect(blank.errors).toEqual([expect.objectContaining({ field: "key_name" })]);
    const long = expectProblem(
      await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/keys`, { name: "x".repeat(61) }),
      422,
      "validation_failed",
    );
    expect(long.errors).toEqual([expect.objectContaining({ field: "name" })]);
    expectProblem(
      await portal(developer, "PATCH", `/portal/v1/apps/${app.app_id}/keys/${keyId}`, { name: "a\u0007b" }),
      422,
      "validation_failed",
    );
    expectProblem(
      await portal(developer, "PATCH", `/portal/v1/apps/${app.app_id}/keys/${keyId}`, {}),
      422,
      "validation_failed",
    );
    expectProblem(
      await portal(developer, "PATCH", `/portal/v1/apps/${app.app_id}/keys/key_00000000000000000000`, { name: "x" }),
      404,
      "key_not_found",
    );
    expect(await keysOf(app.app_id)).toEqual([expect.objectContaining({ name: null })]);
  });

  it("gives another organisation 404 and a viewer 403 on a rename, changing nothing", async () => {
    const created = await portal(developer, "POST", "/portal/v1/apps", { name: "Isolated", key_name: "Mine" });
    const app = created.json as { app_id: string; keys: KeyView[] };
    const route = `/portal/v1/apps/${app.app_id}/keys/${app.keys[0]?.key_id}`;
    expectProblem(await portal(stranger, "PATCH", route, { name: "Theirs" }), 404, "app_not_found");
    expectProblem(await portal(viewer, "PATCH", route, { name: "Theirs" }), 403, "forbidden");
    // Another organisation's app and key under this organisation's app: still no such key.
    const theirs = await fx.api.organizationApp(stranger.organizationId);
    const [theirKey] = await fx.api.apps.listKeys(theirs.app_id);
    const theirKeyId = `key_${theirKey?.key_hash.slice(0, 20)}`;
    expectProblem(
      await portal(developer, "PATCH", `/portal/v1/apps/${app.app_id}/keys/${theirKeyId}`, { name: "Taken" }),
      404,
      "key_not_found",
    );
    expect((await keysOf(app.app_id)).map((key) => key.name)).toEqual(["Mine"]);
    expect((await fx.api.apps.listKeys(theirs.app_id))[0]?.name).toBeUndefined();
  });
});

describe("the authorizer's record of a key's use", () => {
  function authorizerEvent(apiKey: string): APIGatewayRequestAuthorizerEvent {
    return {
      type: "REQUEST",
      methodArn: "arn:aws:execute-api:us-east-1:000000000000:api/v1/GET/v1/verifications",
      headers: { "X-API-Key": apiKey },
    } as unknown as APIGatewayRequestAuthorizerEvent;
  }

  async function lastUsed(apiKey: string): Promise<string | undefined> {
    const { Item } = await fx.api.db.send(
      new GetCommand({ TableName: fx.api.tables.apps, Key: { pk: keyPk(hashApiKey(apiKey)) }, ConsistentRead: true }),
    );
    return Item?.last_used_at as string | undefined;
  }

  async function setLastUsed(apiKey: string, at: string): Promise<void> {
    await fx.api.db.send(
      new UpdateCommand({
        TableName: fx.api.tables.apps,
        Key: { pk: keyPk(hashApiKey(apiKey)) },
        UpdateExpression: "SET last_used_at = :at",
        ExpressionAttributeValues: { ":at": at },
      }),
    );
  }

  it("writes last_used_at on a key's first pass, not again within the minute, and again once it is a minute old", async () => {
    const app = await fx.api.newApp();
    const authorize = fx.api.handlers.authorizer as (event: APIGatewayRequestAuthorizerEvent) => Promise<unknown>;

    expect(await authorize(authorizerEvent(app.api_key))).toMatchObject({ context: { appId: app.app_id } });
    const first = await lastUsed(app.api_key);
    expect(first).toBeDefined();

    // Within the minute: the item read says it is fresh, so nothing is written.
    const recent = isoSeconds(new Date(Date.now() - 30_000));
    await setLastUsed(app.api_key, recent);
    await authorize(authorizerEvent(app.api_key));
    expect(await lastUsed(app.api_key)).toBe(recent);

    // A minute old or more: written again.
    const old = isoSeconds(new Date(Date.now() - 61_000));
    await setLastUsed(app.api_key, old);
    await authorize(authorizerEvent(app.api_key));
    const rewritten = (await lastUsed(app.api_key)) ?? "";
    expect(rewritten > old, `${rewritten} after ${old}`).toBe(true);
  });

  it("records nothing for a revoked key, which does not pass", async () => {
    const app = await fx.api.newApp();
    await fx.api.apps.revokeKeys(
      (await fx.api.apps.getApp(app.app_id)) ?? expect.fail("no app"),
      [hashApiKey(app.api_key)],
      [],
      isoSeconds(new Date()),
    );
    const authorize = fx.api.handlers.authorizer as (event: APIGatewayRequestAuthorizerEvent) => Promise<unknown>;

    await expect(authorize(authorizerEvent(app.api_key))).rejects.toThrow("Unauthorized");
    expect(await lastUsed(app.api_key)).toBeUndefined();
  });
});

describe("an app's events", () => {
  interface Listed {
    data: unknown[];
    next_cursor: string | null;
  }

  async function eventsOf(
    user: PortalUser,
    appId: string,
    query = "",
  ): Promise<ReturnType<typeof appEventSchema.parse>[]> {
    const reply = await portal(user, "GET", `/portal/v1/apps/${appId}/events${query}`);
    expect(reply.status, reply.text).toBe(200);
    return (reply.json as Listed).data.map((event) => appEventSchema.parse(event));
  }

  it("lists events from before a destination was set, sends one that then arrives signed, and numbers a second send as attempt 2", async () => {
    // An app with no destination, and a verification that completes: its events have nowhere to go.
    const app = await fx.api.organizationApp(owner.organizationId);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const created = await customer.created({
      external_reference_id: `events-${crypto.randomUUID().slice(0, 8)}`,
      file_size_bytes: certificate.length,
      process_type: "sync",
    });
    expect((await upload(created, certificate)).status).toBe(200);
    expect(expectVerification(await customer.confirm(created.verification_id))).toMatchObject({ status: "completed" });
    // Two changes within a second may list in either order: their ids share the second.
    await expect
      .poll(async () => (await eventsOf(viewer, app.app_id)).map((event) => [event.type, event.status]).sort(), {
        timeout: 45_000,
      })
      .toEqual([
        ["verification.completed", "no_destination"],
        ["verification.processing", "no_destination"],
      ]);
    const [completed] = await eventsOf(viewer, app.app_id, "?type=verification.completed");
    if (!completed) throw new Error("no completed event");
    expect(completed.attempts).toEqual([]);
    expect(completed.payload).toMatchObject({
      id: completed.event_id,
      type: "verification.completed",
      data: { verification: { verification_id: created.verification_id } },
    });

    // The destination is set now: sending the event delivers it, signed.
    const set = await portal(developer, "PUT", `/portal/v1/apps/${app.app_id}/webhook`, { url: fx.receiver.url });
    expect(set.status, set.text).toBe(200);
    const before = fx.receiver.deliveries.length;
    const sent = await portal(developer, "POST", `/portal/v1/events/${completed.event_id}/send`);
    expect(sent.status, sent.text).toBe(202);
    expect(sent.json).toMatchObject({ event_id: completed.event_id, status: "pending" });
    // Made at once through the delivery queue: no tick runs here.
    const [received] = (await fx.receiver.waitFor(before + 1)).slice(before);
    const verified = new Webhook(app.webhook_secret).verify(received?.body ?? "", received?.headers ?? {});
    expect(verified).toMatchObject({ id: completed.event_id, type: "verification.completed" });

    // Recorded once the endpoint has answered.
    const [delivered] = await until(
      () => eventsOf(viewer, app.app_id, "?type=verification.completed"),
      ([event]) => event?.status === "delivered",
    );
    expect(delivered?.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: "delivered", response_status: 200, url: fx.receiver.url }),
    ]);
    // The headers it lists are the ones the receiver got.
    expect(delivered?.attempts[0]?.headers).toMatchObject({
      "webhook-id": received?.headers["webhook-id"],
      "webhook-timestamp": received?.headers["webhook-timestamp"],
      "webhook-signature": received?.headers["webhook-signature"],
    });

    // Sent again (the replay route is the same action): attempt 2, also in the deliveries log.
    expect((await portal(developer, "POST", `/portal/v1/events/${completed.event_id}/replay`)).status).toBe(202);
    await fx.receiver.waitFor(before + 2);
    const [again] = await until(
      () => eventsOf(viewer, app.app_id, "?type=verification.completed"),
      ([event]) => event?.status === "delivered" && event.attempts.length === 2,
    );
    expect(again?.attempts.map((attempt) => [attempt.attempt, attempt.outcome])).toEqual([
      [1, "delivered"],
      [2, "delivered"],
    ]);
    // The log lists newest first; two attempts of one second list in either order.
    const deliveries = await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/deliveries`);
    const numbers = (deliveries.json as { data: { attempt: number }[] }).data.map((attempt) => attempt.attempt);
    expect(numbers.sort()).toEqual([1, 2]);

    const actions = await auditActions(owner.organizationId);
    expect(actions).toContain("events.viewed");
    expect(actions.filter((action) => action === "event.replayed").length).toBeGreaterThanOrEqual(2);
  }, 90_000);

  it("shows one verification's timeline: its events oldest first with their attempts, no other verification's", async () => {
    const app = await fx.api.organizationApp(owner.organizationId, fx.receiver.url);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const made = async () => {
      const created = await customer.created({ file_size_bytes: certificate.length, process_type: "sync" });
      expect((await upload(created, certificate)).status).toBe(200);
      expect(expectVerification(await customer.confirm(created.verification_id)).status).toBe("completed");
      return created.verification_id;
    };
    const [mine, other] = [await made(), await made()];
    const timeline = (id: string) => eventsOf(viewer, app.app_id, `?verification_id=${id}`);
    await fx.api.handlers.tick();
    await expect
      .poll(async () => (await timeline(mine)).map((event) => [event.type, event.status]), { timeout: 45_000 })
      .toEqual([
        ["verification.processing", "delivered"],
        ["verification.completed", "delivered"],
      ]);
    const events = await timeline(mine);
    expect(events.every((event) => event.verification_id === mine)).toBe(true);
    expect(events.map((event) => event.attempts.map((attempt) => attempt.attempt))).toEqual([[1], [1]]);
    expect((await timeline(other)).map((event) => event.verification_id)).toEqual([other, other]);
    expect(await eventsOf(viewer, app.app_id, `?verification_id=${mine}&type=verification.completed`)).toHaveLength(1);

    // Another app of the organisation has none of its events; a cursor does not go with a timeline.
    const elsewhere = await fx.api.organizationApp(owner.organizationId, fx.receiver.url);
    expect(await eventsOf(viewer, elsewhere.app_id, `?verification_id=${mine}`)).toEqual([]);
    expectProblem(
      await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/events?verification_id=${mine}&cursor=abc`),
      400,
      "invalid_cursor",
    );
    expectProblem(
      await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/events?verification_id=nope`),
      422,
      "validation_failed",
    );
  }, 90_000);

  it("pages newest first, filters by type and time, and refuses a bad filter or cursor", async () => {
    const app = await fx.api.organizationApp(owner.organizationId, fx.receiver.url);
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      await fx.api.newSendingWindow(app.app_id, "test");
      const tested = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`);
      expect(tested.status, tested.text).toBe(200);
      ids.push((tested.json as { event_id: string }).event_id);
    }
    const first = await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/events?limit=2`);
    const page = first.json as { data: { event_id: string }[]; next_cursor: string | null };
    expect(page.data.map((event) => event.event_id)).toEqual([ids[2], ids[1]]);
    const rest = await portal(
      viewer,
      "GET",
      `/portal/v1/apps/${app.app_id}/events?limit=2&cursor=${encodeURIComponent(page.next_cursor ?? "")}`,
    );
    expect((rest.json as { data: { event_id: string }[] }).data.map((event) => event.event_id)).toEqual([ids[0]]);
    expect(await eventsOf(viewer, app.app_id, "?type=verification.completed")).toEqual([]);
    const future = isoSeconds(new Date(Date.now() + 3_600_000));
    expect(await eventsOf(viewer, app.app_id, `?after=${future}`)).toEqual([]);
    expect((await eventsOf(viewer, app.app_id, "?after=2020-01-01T00:00:00Z")).length).toBe(3);

    expectProblem(
      await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/events?type=nope`),
      422,
      "validation_failed",
    );
    expectProblem(
      await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/events?after=yesterday`),
      422,
      "validation_failed",
    );
    expectProblem(
      await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/events?cursor=bm90LWEtY3Vyc29y`),
      400,
      "invalid_cursor",
    );
  });

  it("gives another organisation 404 on the list and on sending, and a viewer 403 on sending", async () => {
    const app = await fx.api.organizationApp(owner.organizationId, fx.receiver.url);
    const tested = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`);
    const { event_id } = tested.json as { event_id: string };

    expectProblem(await portal(stranger, "GET", `/portal/v1/apps/${app.app_id}/events`), 404, "app_not_found");
    expectProblem(await portal(stranger, "POST", `/portal/v1/events/${event_id}/send`), 404, "event_not_found");
    expectProblem(await portal(viewer, "POST", `/portal/v1/events/${event_id}/send`), 403, "forbidden");
    expectProblem(
      await portal(developer, "POST", "/portal/v1/events/evt_01KAAAAAAAAAAAAAAAAAAAAAAA/send"),
      404,
      "event_not_found",
    );
    const [event] = await eventsOf(owner, app.app_id);
    expect(event?.status).toBe("delivered");
    expect(event?.attempts).toHaveLength(1);
  });
});

describe("lookup", () => {
  type Match = LookupMatch & { verification: VerificationResource };

  async function lookup(user: PortalUser, query: string): Promise<Match[]> {
    const reply = await portal(user, "GET", `/portal/v1/lookup${query}`);
    expect(reply.status, reply.text).toBe(200);
    return (reply.json as { data: Match[] }).data;
  }

  it("finds a verification by its id or its reference across the organisation's apps, and the recent ones without q", async () => {
    const organizationOwner = await fx.api.portalUser("owner");
    const [one, two] = await Promise.all([
      fx.api.organizationApp(organizationOwner.organizationId),
      fx.api.organizationApp(organizationOwner.organizationId),
    ]);
    if (!one || !two) throw new Error("no apps");
    const reference = `lookup-${crypto.randomUUID().slice(0, 8)}`;
    const first = await new Customer(fx.api.baseUrl, one.api_key).created({ external_reference_id: reference });
    const second = await new Customer(fx.api.baseUrl, two.api_key).created({ external_reference_id: reference });
    const other = await new Customer(fx.api.baseUrl, two.api_key).created({ external_reference_id: "someone-else" });

    const byReference = await lookup(organizationOwner, `?q=${reference}`);
    expect(byReference.map((match) => [match.app_id, match.verification.verification_id, match.matched_by])).toEqual([
      [two.app_id, second.verification_id, "external_reference_id"],
      [one.app_id, first.verification_id, "external_reference_id"],
    ]);
    expect(byReference[0]?.app_name).toBe(two.name);

    const byId = await lookup(organizationOwner, `?q=${other.verification_id}`);
    expect(byId.map((match) => [match.verification.verification_id, match.matched_by])).toEqual([
      [other.verification_id, "verification_id"],
    ]);

    const recent = await lookup(organizationOwner, "?limit=2");
    expect(recent.map((match) => [match.verification.verification_id, match.matched_by])).toEqual([
      [other.verification_id, "recent"],
      [second.verification_id, "recent"],
    ]);
    const actions = await auditActions(organizationOwner.organizationId);
    // A record per verification each lookup showed, naming it and how it was found, not the query.
    expect(actions.filter((action) => action === "verifications.searched")).toHaveLength(5);
    const searched = await auditRecordsOf(organizationOwner.organizationId, "verifications.searched");
    const shown = (lookup: string, results: string, ids: string[]) =>
      ids.map((verification_id) => ({ verification_id, detail: { lookup, results } }));
    expect(searched.map(({ verification_id, detail }) => ({ verification_id, detail }))).toEqual(
      expect.arrayContaining([
        ...shown("external_reference_id", "2", [second.verification_id, first.verification_id]),
        ...shown("verification_id", "1", [other.verification_id]),
        ...shown("recent", "2", [other.verification_id, second.verification_id]),
      ]),
    );
    // So a verification's own trail, as staff admins read it, lists every lookup that showed it.
    const admin = await fx.api.staffUser(["admins"]);
    const trail = await call(
      fx.api.backofficeUrl,
      "GET",
      `/backoffice/v1/audit?verification_id=${second.verification_id}`,
      {
        headers: { Authorization: `Bearer ${admin.accessToken}` },
      },
    );
    expect(trail.status, trail.text).toBe(200);
    const reads = (trail.json as { data: { action: string; detail?: Record<string, string> }[] }).data.filter(
      (record) => record.action === "verifications.searched",
    );
    expect(reads.map((record) => record.detail?.lookup).sort()).toEqual(["external_reference_id", "recent"]);
    expect(JSON.stringify(searched)).not.toContain(reference);
  });

  it("finds a request by its request_id: what it was about, or the refusal alone; a successful read is not kept", async () => {
    const app = await fx.api.organizationApp(owner.organizationId);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const requestOf = (reply: Reply) => reply.headers.get("Request-Id") ?? expect.fail("no Request-Id");
    const byRequest = async (reply: Reply) => {
      const [match, ...more] = await lookup(viewer, `?q=${requestOf(reply)}`);
      expect(more).toEqual([]);
      return match;
    };

    const create = await customer.create(validBody({ external_reference_id: "by-request" }));
    expect(create.status).toBe(201);
    const { verification_id } = create.json as VerificationResource;
    expect(await byRequest(create)).toMatchObject({
      app_id: app.app_id,
      matched_by: "request_id",
      verification: { verification_id, external_reference_id: "by-request" },
      request: { request_id: requestOf(create), method: "POST", path: "/v1/verifications", status: 201, code: null },
    });

    // A confirm refused before the upload names the verification in its path, and its code.
    const early = await customer.confirm(verification_id);
    expect(early.status).toBe(409);
    expect(await byRequest(early)).toMatchObject({
      verification: { verification_id },
      request: { method: "POST", status: 409, code: "upload_not_found" },
    });

    // A refused create made nothing: the request comes back on its own.
    const refused = await customer.create(validBody({ file_size_bytes: 0 }));
    expect(refused.status).toBe(422);
    expect((refused.json as { request_id: string }).request_id).toBe(requestOf(refused));
    expect(await byRequest(refused)).toMatchObject({
      app_id: app.app_id,
      matched_by: "request_id",
      verification: null,
      // Why, by each invalid field's path and code, never the value sent.
      request: { status: 422, code: "validation_failed", errors: [{ field: "file_size_bytes", code: "too_small" }] },
    });

    // A read that succeeded is not kept; another organisation finds none of these.
    const read = await customer.get(verification_id);
    expect(read.status).toBe(200);
    expect(await lookup(viewer, `?q=${requestOf(read)}`)).toEqual([]);
    expect(await lookup(stranger, `?q=${requestOf(create)}`)).toEqual([]);
    expect(await lookup(stranger, `?q=${requestOf(refused)}`)).toEqual([]);
  });

  it("finds nothing of another organisation's, by id or by reference, and refuses a bad q", async () => {
    const app = await fx.api.organizationApp(owner.organizationId);
    const reference = `private-${crypto.randomUUID().slice(0, 8)}`;
    const theirs = await new Customer(fx.api.baseUrl, app.api_key).created({ external_reference_id: reference });

    expect(await lookup(stranger, `?q=${theirs.verification_id}`)).toEqual([]);
    expect(await lookup(stranger, `?q=${reference}`)).toEqual([]);
    expect((await lookup(stranger, "")).map((match) => match.app_id)).not.toContain(app.app_id);
    expect((await lookup(viewer, `?q=${reference}`)).map((match) => match.verification.verification_id)).toEqual([
      theirs.verification_id,
    ]);
    expectProblem(await portal(viewer, "GET", `/portal/v1/lookup?q=${"x".repeat(129)}`), 422, "validation_failed");
    expectProblem(await portal(viewer, "GET", "/portal/v1/lookup?q="), 422, "validation_failed");
  });
});

describe("the request log", () => {
  type Kept = {
    request_id: string;
    method: string;
    path: string;
    status: number;
    code: string | null;
    errors: unknown[];
    verification_id: string | null;
    at: string;
  };

  async function requestsOf(
    user: PortalUser,
    appId: string,
    query = "",
  ): Promise<{ data: Kept[]; next_cursor: string | null }> {
    const reply = await portal(user, "GET", `/portal/v1/apps/${appId}/requests${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.json as { data: Kept[]; next_cursor: string | null };
  }

  it("lists an app's kept requests newest first, filters them by status class and time, pages them, and shows another organisation nothing", async () => {
    const app = await fx.api.organizationApp(owner.organizationId);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const requestOf = (reply: Reply) => reply.headers.get("Request-Id") ?? expect.fail("no Request-Id");
    const created = await customer.create(validBody({ external_reference_id: "logged" }));
    expect(created.status).toBe(201);
    const { verification_id } = created.json as VerificationResource;
    const early = await customer.confirm(verification_id);
    expect(early.status).toBe(409);
    const refused = await customer.create(validBody({ file_size_bytes: 0, metadata: { secret: "value-never-kept" } }));
    expect(refused.status).toBe(422);
    // A read that succeeded is not kept.
    expect((await customer.get(verification_id)).status).toBe(200);

    const all = await requestsOf(viewer, app.app_id);
    expect(all.data.map((request) => request.request_id)).toEqual([
      requestOf(refused),
      requestOf(early),
      requestOf(created),
    ]);
    expect(all.data).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/v1/verifications",
        status: 422,
        code: "validation_failed",
        errors: [{ field: "file_size_bytes", code: "too_small" }],
        verification_id: null,
      }),
      expect.objectContaining({
        path: `/v1/verifications/${verification_id}/upload-complete`,
        status: 409,
        code: "upload_not_found",
        errors: [],
        verification_id,
      }),
      expect.objectContaining({ status: 201, code: null, errors: [], verification_id }),
    ]);
    expect(JSON.stringify(all)).not.toContain("value-never-kept");

    expect((await requestsOf(viewer, app.app_id, "?status=4xx")).data.map((request) => request.status)).toEqual([
      422, 409,
    ]);
    expect((await requestsOf(viewer, app.app_id, "?status=2xx")).data.map((request) => request.status)).toEqual([201]);
    expect((await requestsOf(viewer, app.app_id, "?status=5xx")).data).toEqual([]);
    const later = isoSeconds(new Date(Date.now() + 60_000));
    expect((await requestsOf(viewer, app.app_id, `?since=${later}`)).data).toEqual([]);
    const first = all.data.at(-1)?.at ?? "";
    const before = isoSeconds(new Date(Date.parse(first) - 1000));
    expect((await requestsOf(viewer, app.app_id, `?until=${before}`)).data).toEqual([]);

    // One at a time, newest first, each exactly once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await requestsOf(
        viewer,
        app.app_id,
        `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      seen.push(...page.data.map((request) => request.request_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.data.map((request) => request.request_id));

    expectProblem(await portal(stranger, "GET", `/portal/v1/apps/${app.app_id}/requests`), 404, "app_not_found");
    expectProblem(
      await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/requests?status=3xx`),
      422,
      "validation_failed",
    );
    expectProblem(
      await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/requests?cursor=nope`),
      400,
      "invalid_cursor",
    );
    // A cursor made up by hand reads from where it says within the app, and never fails.
    const madeUp = encodeURIComponent(encodeCursor({ after: "2999-01-01T00:00:00Z#made-up" }));
    expect((await requestsOf(viewer, app.app_id, `?cursor=${madeUp}`)).data).toHaveLength(3);
  });
});
