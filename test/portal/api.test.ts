/**
 * The portal API over HTTP, on the real engines and the local identity endpoint: an
 * organisation's people manage its apps, keys and webhooks, find its verifications and read its
 * usage; another organisation reaches none of it, a viewer changes nothing, and every change is
 * in the audit trail.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { PORTAL_AUTHORIZER } from "#shared/declarations/portal-api";
import { AUDIT_ACTIONS } from "#shared/domain/audit";
import { testEventSchema } from "#shared/domain/responses/events";
import { SENDING_LIMITS } from "#shared/domain/tenant-limits";
import { LEFT_BEHIND_REASON } from "#shared/use-cases/accounts/organizations";
import { LOCAL_PORTAL_POOL } from "../../local/resources.ts";
import type { PortalUser } from "../support/api.ts";
import { Customer, call, expectProblem, type Reply, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";
import { until } from "../support/until.ts";

const fx = useApiFixture({ pipeline: true, receiver: true });

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

function portal(
  user: PortalUser | string,
  method: string,
  route: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const token = typeof user === "string" ? user : user.accessToken;
  return call(fx.api.portalUrl, method, route, {
    headers: {
      Authorization: `Bearer ${token}`,
      ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

interface CreatedApp {
  app_id: string;
  api_key: string;
  webhook_secret: string;
  keys: { key_id: string; status: string }[];
}

async function newApp(user: PortalUser, body: Record<string, unknown> = {}): Promise<CreatedApp> {
  const reply = await portal(user, "POST", "/portal/v1/apps", { body: { name: "Admissions", ...body } });
  expect(reply.status, reply.text).toBe(201);
  return reply.json as CreatedApp;
}

async function auditActions(organizationId: string): Promise<string[]> {
  const records = await fx.api.scan(fx.api.tables.audit);
  return records
    .filter((record) => record.organization_id === organizationId)
    .sort((a, b) => String(a.audit_id).localeCompare(String(b.audit_id)))
    .map((record) => String(record.action));
}

describe("who is calling", () => {
  it("answers the member's organisation and role", async () => {
    const reply = await portal(viewer, "GET", "/portal/v1/me");
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      username: viewer.username,
      role: "viewer",
      organization_id: owner.organizationId,
      environment: "sandbox",
    });
  });

  it("refuses a missing or foreign credential with 401, and a user of no organisation with 403", async () => {
    expectProblem(await call(fx.api.portalUrl, "GET", "/portal/v1/apps"), 401, "invalid_token");
    expectProblem(await portal(fx.app.api_key, "GET", "/portal/v1/apps"), 401, "invalid_token");
    const staff = await fx.api.staffUser(["admins"]);
    expectProblem(await portal(staff.accessToken, "GET", "/portal/v1/apps"), 401, "invalid_token");
    // A portal token on the backoffice and on the public API is refused there too.
    expectProblem(
      await call(fx.api.backofficeUrl, "GET", "/backoffice/v1/reviews", {
        headers: { Authorization: `Bearer ${owner.accessToken}` },
      }),
      401,
      "invalid_token",
    );
    expectProblem(
      await call(fx.api.baseUrl, "GET", "/v1/verifications", { headers: { "X-API-Key": owner.accessToken } }),
      401,
      "invalid_api_key",
    );
    const loner = await fx.api.portalUser("owner");
    await fx.api.db.send(
      new (await import("@aws-sdk/lib-dynamodb")).DeleteCommand({
        TableName: fx.api.tables.apps,
        Key: { pk: `MEMBER#${loner.sub}` },
      }),
    );
    expectProblem(await portal(loner, "GET", "/portal/v1/me"), 403, "forbidden");
  });
});

describe("apps and keys", () => {
  it("creates an app with its key and secret shown once, and the key works on the public API", async () => {
    const app = await newApp(developer);
    expect(app.api_key).toMatch(/^vk_sandbox_/);
    expect(app.keys).toEqual([expect.objectContaining({ status: "active", key_id: expect.stringMatching(/^key_/) })]);

    const listed = await portal(viewer, "GET", "/portal/v1/apps");
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(app.api_key);
    expect(listed.text).not.toContain(app.webhook_secret);
    expect((listed.json as { data: { app_id: string }[] }).data.map((a) => a.app_id)).toContain(app.app_id);

    const customer = new Customer(fx.api.baseUrl, app.api_key);
    expect(
      (await customer.create({ document_type: "YOK_STUDENT", original_filename: "a.pdf", file_size_bytes: 10 })).status,
    ).toBe(201);
  });

  it("rotates a key (both pass during the grace period) and revokes the old one at once", async () => {
    const app = await newApp(developer);
    const rotated = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/keys`, {
      body: { grace_seconds: 3600 },
    });
    expect(rotated.status, rotated.text).toBe(201);
    const { api_key, key, expiring } = rotated.json as {
      api_key: string;
      key: { key_id: string };
      expiring: { key_id: string; status: string }[];
    };
    expect(expiring).toEqual([expect.objectContaining({ key_id: app.keys[0]?.key_id, status: "expiring" })]);
    // A third live key is refused until one goes.
    expectProblem(await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/keys`), 409, "too_many_live_keys");

    const revoked = await portal(developer, "DELETE", `/portal/v1/apps/${app.app_id}/keys/${app.keys[0]?.key_id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json).toMatchObject({ app_id: app.app_id, key: { status: "revoked" } });
    expectProblem(
      await portal(developer, "DELETE", `/portal/v1/apps/${app.app_id}/keys/${app.keys[0]?.key_id}`),
      404,
      "key_not_found",
    );
    const fresh = new Customer(fx.api.baseUrl, api_key);
    expect(
      (await call(fx.api.baseUrl, "GET", "/v1/verifications", { headers: { "X-API-Key": fresh.apiKey } })).status,
    ).toBe(200);
    expect(key.key_id).not.toBe(app.keys[0]?.key_id);
  });

  it("refuses a bad name, an unknown field, a foreign webhook URL and a wrong media type, storing nothing", async () => {
    const before = (await fx.api.scan(fx.api.tables.apps)).length;
    const blank = expectProblem(
      await portal(developer, "POST", "/portal/v1/apps", { body: { name: "   " } }),
      422,
      "validation_failed",
    );
    expect(blank.errors).toEqual([expect.objectContaining({ field: "name" })]);
    const unknown = expectProblem(
      await portal(developer, "POST", "/portal/v1/apps", { body: { name: "x", owner: "me" } }),
      422,
      "validation_failed",
    );
    expect(unknown.errors).toEqual([expect.objectContaining({ field: "owner", code: "unknown_field" })]);
    const url = expectProblem(
      await portal(developer, "POST", "/portal/v1/apps", { body: { name: "x", webhook_url: "ftp://example.com/h" } }),
      422,
      "validation_failed",
    );
    expect(url.errors).toEqual([expect.objectContaining({ field: "webhook_url" })]);
    expectProblem(
      await portal(developer, "POST", "/portal/v1/apps", {
        body: { name: "x" },
        headers: { "Content-Type": "text/plain" },
      }),
      415,
      "unsupported_media_type",
    );
    expectProblem(
      await call(fx.api.portalUrl, "POST", "/portal/v1/apps", {
        headers: { Authorization: `Bearer ${developer.accessToken}`, "Content-Type": "application/json" },
        body: "{",
      }),
      400,
      "malformed_json",
    );
    expect((await fx.api.scan(fx.api.tables.apps)).length).toBe(before);
  });
});

describe("webhooks", () => {
  it("sets the destination, sends a signed webhook.test, shows the delivery with its response, and replays it", async () => {
    const app = await newApp(developer);
    expectProblem(
      await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`),
      409,
      "webhook_not_set",
    );
    const set = await portal(developer, "PUT", `/portal/v1/apps/${app.app_id}/webhook`, {
      body: { url: fx.receiver.url },
    });
    expect(set.status, set.text).toBe(200);

    const before = fx.receiver.deliveries.length;
    const tested = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`);
    expect(tested.status, tested.text).toBe(200);
    const { event_id, delivery } = tested.json as { event_id: string; delivery: Record<string, unknown> };
    expect(delivery).toMatchObject({
      event_id,
      event_type: "webhook.test",
      outcome: "delivered",
      response_status: 200,
    });

    const [received] = (await fx.receiver.waitFor(before + 1)).slice(before);
    if (!received) throw new Error("no delivery");
    const verified = new Webhook(app.webhook_secret).verify(received.body, received.headers);
    expect(testEventSchema.parse(verified)).toMatchObject({ id: event_id, data: { app_id: app.app_id } });

    const deliveries = await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect((deliveries.json as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ event_id, attempt: 1, response_status: 200, url: fx.receiver.url }),
    ]);

    // The replay's attempt is made at once through the delivery queue (no tick runs here); while
    // it is under way (the endpoint takes its time) the event is pending, and another replay or
    // send would restart its schedule.
    fx.receiver.answerAfterMs = 3_000;
    try {
      const replayed = await portal(developer, "POST", `/portal/v1/events/${event_id}/replay`);
      expect(replayed.status, replayed.text).toBe(202);
      for (const route of ["replay", "send"]) {
        expectProblem(await portal(developer, "POST", `/portal/v1/events/${event_id}/${route}`), 409, "event_pending");
      }
      await fx.receiver.waitFor(before + 2);
    } finally {
      fx.receiver.answerAfterMs = 0;
    }
    await until(
      async () => (await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/deliveries?status=delivered`)).json,
      (page) => (page as { data: unknown[] }).data.length === 2,
    );
  });

  it(`sends ${SENDING_LIMITS.test.most} test event every ${SENDING_LIMITS.test.perSeconds} s per app: another is 429 with the seconds to wait`, async () => {
    const app = await newApp(developer);
    await portal(developer, "PUT", `/portal/v1/apps/${app.app_id}/webhook`, { body: { url: fx.receiver.url } });
    expect((await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`)).status).toBe(200);
    const before = fx.receiver.deliveries.length;
    const refused = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`);
    expectProblem(refused, 429, "rate_limited");
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(SENDING_LIMITS.test.perSeconds);
    // Nothing was sent, and another app of the organisation has its own window.
    expect(fx.receiver.deliveries.length).toBe(before);
    const other = await newApp(developer);
    await portal(developer, "PUT", `/portal/v1/apps/${other.app_id}/webhook`, { body: { url: fx.receiver.url } });
    expect((await portal(developer, "POST", `/portal/v1/apps/${other.app_id}/webhook/test`)).status).toBe(200);
  });

  it("keeps the first 1 KiB of a failing answer with its status, and lists failed attempts apart", async () => {
    const app = await newApp(developer);
    await portal(developer, "PUT", `/portal/v1/apps/${app.app_id}/webhook`, { body: { url: fx.receiver.url } });
    fx.receiver.answer = 503;
    // 3,000 bytes of two-byte characters: kept to the last whole character within 1,024 bytes.
    fx.receiver.answerBody = `{"error":"${"ş".repeat(1500)}"}`;
    try {
      const tested = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`);
      const { delivery } = tested.json as {
        delivery: { outcome: string; response_status: number; response_body: string };
      };
      expect(delivery).toMatchObject({ outcome: "failed", response_status: 503, error_code: "http_status" });
      expect(fx.receiver.answerBody.startsWith(delivery.response_body)).toBe(true);
      expect(Buffer.byteLength(delivery.response_body)).toBeGreaterThan(1000);
      expect(Buffer.byteLength(delivery.response_body)).toBeLessThanOrEqual(1024);
    } finally {
      fx.receiver.answer = 200;
      fx.receiver.answerBody = "";
    }
    const failed = await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/deliveries?status=failed`);
    expect((failed.json as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ outcome: "failed", response_status: 503 }),
    ]);
    const delivered = await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/deliveries?status=delivered`);
    expect((delivered.json as { data: unknown[] }).data).toEqual([]);
  });

  it("rotates the signing secret, shown once", async () => {
    const app = await newApp(developer);
    const rotated = await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/secret`);
    expect(rotated.status, rotated.text).toBe(201);
    const { webhook_secret } = rotated.json as { webhook_secret: string };
    expect(webhook_secret).not.toBe(app.webhook_secret);
    const listed = await portal(owner, "GET", "/portal/v1/apps");
    expect(listed.text).not.toContain(webhook_secret);
  });
});

describe("isolation and roles", () => {
  it("gives another organisation 404 on every route that names an app, key, event or verification", async () => {
    const app = await newApp(developer);
    await portal(developer, "PUT", `/portal/v1/apps/${app.app_id}/webhook`, { body: { url: fx.receiver.url } });
    const { event_id } = (await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`)).json as {
      event_id: string;
    };
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const verification = await customer.created({ external_reference_id: "isolated-1" });
    const keyId = app.keys[0]?.key_id;
    const attempts: [string, string, unknown?][] = [
      ["POST", `/portal/v1/apps/${app.app_id}/keys`, {}],
      ["DELETE", `/portal/v1/apps/${app.app_id}/keys/${keyId}`],
      ["PUT", `/portal/v1/apps/${app.app_id}/webhook`, { url: "https://example.com/h" }],
      ["POST", `/portal/v1/apps/${app.app_id}/webhook/secret`],
      ["POST", `/portal/v1/apps/${app.app_id}/webhook/test`],
      ["GET", `/portal/v1/apps/${app.app_id}/deliveries`],
      ["GET", `/portal/v1/verifications?app_id=${app.app_id}`],
      ["GET", `/portal/v1/usage?from=2026-01-01&to=2026-12-31&app_id=${app.app_id}`],
    ];
    const before = await fx.api.scan(fx.api.tables.apps);
    for (const [method, route, body] of attempts) {
      expectProblem(await portal(stranger, method, route, { body }), 404, "app_not_found");
    }
    expectProblem(await portal(stranger, "POST", `/portal/v1/events/${event_id}/replay`), 404, "event_not_found");
    expectProblem(
      await portal(stranger, "GET", `/portal/v1/verifications/${verification.verification_id}`),
      404,
      "verification_not_found",
    );
    // Nothing of it in the stranger's own lists, and nothing changed.
    const theirs = await portal(stranger, "GET", "/portal/v1/apps");
    expect(theirs.text).not.toContain(app.app_id);
    const usage = await portal(stranger, "GET", "/portal/v1/usage?from=2026-01-01&to=2026-12-31");
    expect(usage.text).not.toContain(app.app_id);
    expect(await fx.api.scan(fx.api.tables.apps)).toEqual(before);
  });

  it("lets a viewer read but change nothing (403), and a developer not what only owners may", async () => {
    const app = await newApp(developer);
    const changes: [string, string, unknown?][] = [
      ["POST", "/portal/v1/apps", { name: "x" }],
      ["POST", `/portal/v1/apps/${app.app_id}/keys`, {}],
      ["DELETE", `/portal/v1/apps/${app.app_id}/keys/${app.keys[0]?.key_id}`],
      ["PUT", `/portal/v1/apps/${app.app_id}/webhook`, { url: fx.receiver.url }],
      ["POST", `/portal/v1/apps/${app.app_id}/webhook/secret`],
      ["POST", `/portal/v1/apps/${app.app_id}/webhook/test`],
      ["POST", "/portal/v1/events/evt_01KAAAAAAAAAAAAAAAAAAAAAAA/replay"],
    ];
    for (const [method, route, body] of changes) {
      expectProblem(await portal(viewer, method, route, { body }), 403, "forbidden");
    }
    expect((await portal(viewer, "GET", "/portal/v1/apps")).status).toBe(200);
    expect((await portal(viewer, "GET", `/portal/v1/apps/${app.app_id}/deliveries`)).status).toBe(200);
  });

  it("records every change in the audit trail under the portal user and the organisation", async () => {
    const actions = await auditActions(owner.organizationId);
    for (const action of [
      "app.created",
      "key.created",
      "key.revoked",
      "webhook.updated",
      "webhook.secret_rotated",
      "webhook.tested",
      "event.replayed",
    ]) {
      expect(AUDIT_ACTIONS).toContain(action);
      expect(actions).toContain(action);
    }
    const records = await fx.api.scan(fx.api.tables.audit);
    const created = records.find(
      (record) => record.action === "app.created" && record.organization_id === owner.organizationId,
    );
    expect(created).toMatchObject({ actor: { pool: "portal", sub: developer.sub, username: developer.username } });
  });
});

describe("search, events and usage", () => {
  it("finds a verification by its reference, in the portal and on the public list, and counts it once final", async () => {
    const app = await newApp(developer);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const reference = `test_verified_${crypto.randomUUID()}`;
    const created = await customer.created({ external_reference_id: reference });
    await customer.created({ external_reference_id: "someone-else" });

    const found = await portal(
      viewer,
      "GET",
      `/portal/v1/verifications?app_id=${app.app_id}&external_reference_id=${reference}`,
    );
    expect(found.status, found.text).toBe(200);
    expect((found.json as { data: { verification_id: string }[] }).data.map((v) => v.verification_id)).toEqual([
      created.verification_id,
    ]);
    const listed = await call(fx.api.baseUrl, "GET", `/v1/verifications?external_reference_id=${reference}`, {
      headers: { "X-API-Key": app.api_key },
    });
    expect((listed.json as { data: { verification_id: string }[] }).data.map((v) => v.verification_id)).toEqual([
      created.verification_id,
    ]);
    const viewed = await portal(viewer, "GET", `/portal/v1/verifications/${created.verification_id}`);
    expect(viewed.json).toMatchObject({ verification_id: created.verification_id, external_reference_id: reference });
    expect(viewed.json).not.toHaveProperty("upload");
    // The search's record names the verification it showed and which filter found it, not the reference asked for.
    const records = await fx.api.scan(fx.api.tables.audit);
    const searched = records.filter(
      (record) => record.action === "verifications.searched" && record.app_id === app.app_id,
    );
    expect(searched.map(({ detail, verification_id }) => ({ detail, verification_id }))).toEqual([
      { detail: { filters: "external_reference_id", results: "1" }, verification_id: created.verification_id },
    ]);
    expect(JSON.stringify(searched)).not.toContain(reference);
  });

  it("counts each verification once in usage, on the day it reached its final state, by outcome", async () => {
    const app = await newApp(developer);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const bytes = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));
    const outcomes = ["test_verified_1", "test_verified_2", "test_rejected_1"];
    for (const reference of outcomes) {
      const created = await customer.created({ external_reference_id: reference, file_size_bytes: bytes.length });
      expect((await upload(created, bytes)).status).toBe(200);
      expect((await customer.confirm(created.verification_id)).status).toBe(200);
    }
    const today = new Date().toISOString().slice(0, 10);
    const deadline = Date.now() + 15_000;
    let row: Record<string, unknown> | undefined;
    while (Date.now() < deadline) {
      const usage = await portal(viewer, "GET", `/portal/v1/usage?from=${today}&to=${today}&app_id=${app.app_id}`);
      row = (usage.json as { data: Record<string, unknown>[] }).data[0];
      if (row?.total === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(row).toEqual({
      day: today,
      app_id: app.app_id,
      verified: 2,
      rejected: 1,
      inconclusive: 0,
      failed: 0,
      expired: 0,
      total: 3,
    });
    // Every app of the organisation, the last 30 days, when nothing is named; a window the wrong way round is refused.
    const all = await portal(viewer, "GET", "/portal/v1/usage");
    expect((all.json as { data: { app_id: string }[] }).data.map((r) => r.app_id)).toContain(app.app_id);
    const backwards = expectProblem(
      await portal(viewer, "GET", "/portal/v1/usage?from=2026-02-01&to=2026-01-01"),
      422,
      "validation_failed",
    );
    expect(backwards.errors).toEqual([expect.objectContaining({ field: "to" })]);
  });

  it("pages through every verification exactly once while others are being created", async () => {
    const app = await newApp(developer);
    const customer = new Customer(fx.api.baseUrl, app.api_key);
    const existing = new Set<string>();
    for (let i = 0; i < 25; i++)
      existing.add((await customer.created({ external_reference_id: `page-${i}` })).verification_id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      // A new verification between every two pages: newer than every page read so far.
      await customer.created({ external_reference_id: `during-${pages}` });
      const query: string = `/v1/verifications?limit=4${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await call(fx.api.baseUrl, "GET", query, { headers: { "X-API-Key": app.api_key } });
      expect(page.status, page.text).toBe(200);
      const body = page.json as { data: { verification_id: string; created_at: string }[]; next_cursor: string | null };
      seen.push(...body.data.map((v) => v.verification_id));
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor && pages < 50);

    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen).toContain(id);
    // The portal's search pages the same way.
    const first = await portal(viewer, "GET", `/portal/v1/verifications?app_id=${app.app_id}&limit=100`);
    expect((first.json as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(existing.size);
    expectProblem(
      await call(fx.api.baseUrl, "GET", "/v1/verifications?cursor=bm90LW91cnM", {
        headers: { "X-API-Key": app.api_key },
      }),
      400,
      "invalid_cursor",
    );
  });

  it("lists the app's events in order with the bodies the webhooks carried, after a given event", async () => {
    const app = await newApp(developer);
    await portal(developer, "PUT", `/portal/v1/apps/${app.app_id}/webhook`, { body: { url: fx.receiver.url } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      await fx.api.newSendingWindow(app.app_id, "test");
      ids.push(
        ((await portal(developer, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`)).json as { event_id: string })
          .event_id,
      );
    }
    const events = await call(fx.api.baseUrl, "GET", "/v1/events?limit=2", { headers: { "X-API-Key": app.api_key } });
    const page = events.json as { data: { id: string; type: string }[]; next_cursor: string | null };
    expect(page.data.map((event) => event.id)).toEqual(ids.slice(0, 2));
    expect(page.next_cursor).toBe(ids[1]);
    const rest = await call(fx.api.baseUrl, "GET", `/v1/events?after=${page.next_cursor}`, {
      headers: { "X-API-Key": app.api_key },
    });
    expect(rest.json).toEqual({
      data: [expect.objectContaining({ id: ids[2], type: "webhook.test" })],
      next_cursor: null,
    });
    const delivered = fx.receiver.deliveries.find((delivery) => delivery.headers["webhook-id"] === ids[2]);
    expect(JSON.parse(delivered?.body ?? "null")).toEqual((rest.json as { data: unknown[] }).data[0]);
    // Another app's key sees none of them.
    const others = await call(fx.api.baseUrl, "GET", "/v1/events", { headers: { "X-API-Key": fx.app.api_key } });
    expect(others.text).not.toContain(ids[0]);
  });
});

describe("people", () => {
  it("lets an owner invite a person with a role and list the organisation's people; nobody else may", async () => {
    const username = `new-${crypto.randomUUID().slice(0, 8)}`;
    const invited = await portal(owner, "POST", "/portal/v1/users", {
      body: { username, email: `${username}@example.com.tr`, role: "viewer" },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.json).toEqual({ username, role: "viewer", status: "FORCE_CHANGE_PASSWORD" });
    // The temporary password went to the invitee, and only there: the inviter never sees it.
    const invitation = fx.api.identity.invitationOf(username);
    expect(invitation?.to).toBe(`${username}@example.com.tr`);
    expect(invited.text).not.toContain(invitation?.temporaryPassword);
    const people = await portal(owner, "GET", "/portal/v1/users");
    expect((people.json as { data: { username: string; role: string }[] }).data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ username, role: "viewer" }),
        expect.objectContaining({ username: owner.username, role: "owner" }),
      ]),
    );
    expect(people.text).not.toContain(stranger.username);
    // A username another organisation has is taken, and the answer says no more than that.
    const taken = await portal(owner, "POST", "/portal/v1/users", {
      body: { username: stranger.username, email: "someone@example.com", role: "viewer" },
    });
    expectProblem(taken, 409, "user_exists");
    expect(taken.text).not.toMatch(/pool|organi[sz]ation|org_/i);
    expectProblem(
      await portal(owner, "POST", "/portal/v1/users", { body: { username: "no-email", role: "viewer" } }),
      422,
      "validation_failed",
    );
    expectProblem(
      await portal(developer, "POST", "/portal/v1/users", {
        body: { username: "x-y-z", email: "x@example.com", role: "owner" },
      }),
      403,
      "forbidden",
    );
    expectProblem(await portal(developer, "GET", "/portal/v1/users"), 403, "forbidden");
    expect(await auditActions(owner.organizationId)).toContain("user.invited");
  });

  it("removes a person by who they are: a membership left behind by a deleted user does not reach whoever holds the name now", async () => {
    const { cognito } = fx.api.identity;
    const pool = { UserPoolId: LOCAL_PORTAL_POOL.id };
    const username = `reused-${crypto.randomUUID().slice(0, 8)}`;
    const invited = await portal(owner, "POST", "/portal/v1/users", {
      body: { username, email: `${username}@example.com`, role: "viewer" },
    });
    expect(invited.status, invited.text).toBe(201);
    // The person is deleted from the pool, and someone else is made under the freed name in the
    // pool itself (as an operator may, by hand), not through an invitation, which would drop the
    // membership left behind (see the next test).
    await cognito.send(new AdminDeleteUserCommand({ ...pool, Username: username }));
    await cognito.send(new AdminCreateUserCommand({ ...pool, Username: username, MessageAction: "SUPPRESS" }));
    const subOf = async () =>
      (await cognito.send(new AdminGetUserCommand({ ...pool, Username: username }))).UserAttributes?.find(
        (attribute) => attribute.Name === "sub",
      )?.Value;
    const newcomer = await subOf();
    expect(newcomer).toBeDefined();

    // The organisation removes its stale membership; the newcomer stays in the pool.
    const removed = await portal(owner, "DELETE", `/portal/v1/users/${username}`);
    expect(removed.status, removed.text).toBe(200);
    expect(await subOf()).toBe(newcomer);
    expectProblem(await portal(owner, "GET", `/portal/v1/users/${username}`), 404, "member_not_found");
  });

  it("drops a deleted user's membership when another organisation invites someone under the name, giving its places back and recording why", async () => {
    const { cognito } = fx.api.identity;
    const username = `retaken-${crypto.randomUUID().slice(0, 8)}`;
    const invite = (by: PortalUser) =>
      portal(by, "POST", "/portal/v1/users", { body: { username, email: `${username}@example.com`, role: "viewer" } });
    const places = async (organizationId: string) => {
      const { Item } = await fx.api.db.send(
        new GetCommand({ TableName: fx.api.tables.apps, Key: { pk: `ORG#${organizationId}` }, ConsistentRead: true }),
      );
      return { members: Item?.member_count, pending: Item?.pending_count };
    };
    const people = async (by: PortalUser) =>
      ((await portal(by, "GET", "/portal/v1/users?limit=100")).json as { data: { username: string }[] }).data.map(
        (person) => person.username,
      );
    expect((await invite(owner)).status).toBe(201);
    const invited = await places(owner.organizationId);
    expect(await people(owner)).toContain(username);

    // The person is deleted from the pool before they sign in; another organisation's owner then
    // invites someone under the freed name.
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: LOCAL_PORTAL_POOL.id, Username: username }));
    const again = await invite(stranger);
    expect(again.status, again.text).toBe(201);

    // The first organisation no longer lists them, has both their places back (a member's and a
    // pending invitation's), and its trail says why they went and who took the name.
    expect(await people(owner)).not.toContain(username);
    expectProblem(await portal(owner, "GET", `/portal/v1/users/${username}`), 404, "member_not_found");
    expect(await places(owner.organizationId)).toEqual({
      members: (invited.members as number) - 1,
      pending: (invited.pending as number) - 1,
    });
    const records = (await fx.api.scan(fx.api.tables.audit)).filter(
      (record) =>
        record.organization_id === owner.organizationId &&
        record.action === "member.removed" &&
        (record.detail as Record<string, string> | undefined)?.username === username,
    );
    expect(records).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ pool: "portal", sub: stranger.sub, username: stranger.username }),
        detail: { username, role: "viewer", reason: LEFT_BEHIND_REASON },
      }),
    ]);
    // The newcomer is the other organisation's member, untouched.
    expect(await people(stranger)).toContain(username);
  });

  it("lets an owner change a role and remove a person, never the last owner; the removed token is refused after the authorizer's cache", async () => {
    const username = `leaving-${crypto.randomUUID().slice(0, 8)}`;
    const invited = await portal(owner, "POST", "/portal/v1/users", {
      body: { username, email: `${username}@example.com`, role: "developer" },
    });
    expect(invited.status, invited.text).toBe(201);
    const token = await fx.api.identity.firstPortalSignIn(username);
    expect((await portal(token, "GET", "/portal/v1/apps")).status).toBe(200);

    const changed = await portal(owner, "PATCH", `/portal/v1/users/${username}`, { body: { role: "viewer" } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({ username, role: "viewer" });
    expect((await portal(owner, "GET", `/portal/v1/users/${username}`)).json).toMatchObject({
      username,
      role: "viewer",
    });
    expectProblem(await portal(owner, "GET", `/portal/v1/users/${stranger.username}`), 404, "member_not_found");
    // The owner is the organisation's only owner: neither demoted nor removed, by themself or anyone.
    expectProblem(
      await portal(owner, "PATCH", `/portal/v1/users/${owner.username}`, { body: { role: "viewer" } }),
      409,
      "last_owner",
    );
    expectProblem(await portal(owner, "DELETE", `/portal/v1/users/${owner.username}`), 409, "last_owner");
    // Another organisation's member, and someone who does not exist, read alike.
    expectProblem(await portal(owner, "DELETE", `/portal/v1/users/${stranger.username}`), 404, "member_not_found");
    expectProblem(await portal(owner, "DELETE", "/portal/v1/users/nobody-here"), 404, "member_not_found");
    expectProblem(await portal(developer, "DELETE", `/portal/v1/users/${username}`), 403, "forbidden");

    const removed = await portal(owner, "DELETE", `/portal/v1/users/${username}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toMatchObject({ username, role: "viewer" });
    // Within the cache window the gateway may still answer from its last decision for this
    // token; once the window passes, the authorizer asks again and the removed user is refused.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + (PORTAL_AUTHORIZER.cacheTtlSeconds + 1) * 1000);
      const after = await portal(token, "GET", "/portal/v1/apps");
      expect([401, 403], after.text).toContain(after.status);
    } finally {
      vi.useRealTimers();
    }
    const people = await portal(owner, "GET", "/portal/v1/users");
    expect(people.text).not.toContain(username);
    expect(await auditActions(owner.organizationId)).toEqual(
      expect.arrayContaining(["member.role_changed", "member.removed"]),
    );
  });
});
