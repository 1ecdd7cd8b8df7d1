/**
 * Every list's cursor over HTTP, on the real engines: a cursor a list handed out takes the next
 * page, and a forged one (base64url JSON with empty, overlong, wrong-typed or foreign-shaped
 * fields, missing or extra ones, or no JSON at all) is `400 invalid_cursor` with the problem
 * body, never a 500, and costs next to no DynamoDB calls. The calls are counted at a proxy in
 * front of DynamoDB Local; nothing else runs meanwhile (no change stream, no tick), so the count
 * is the request's own.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REVIEW_WINDOW_SECONDS, STATUSES, type Status } from "#shared/domain/state";
import { isoSeconds } from "#shared/domain/time";
import type { NewApp } from "#shared/use-cases/accounts/apps";
import { type PortalUser, type StaffUser, startApi, type TestApi } from "../support/api.ts";
import { Customer, call, expectProblem, expectVerification, type Reply, upload } from "../support/client.ts";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

/** DynamoDB calls a refused cursor may cost: the authorizer's and the app's reads, before the cursor is read. */
const REFUSAL_CALLS = 3;
const DAY_MS = 86_400_000;

const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

let proxy: FaultProxy;
let api: TestApi;
let receiver: Receiver;
let customer: Customer;
let owner: PortalUser;
let orgApp: NewApp;
let reviewer: StaffUser;
let admin: StaffUser;

beforeAll(async () => {
  proxy = await startFaultProxy(inject("engines").dynamoEndpoint);
  receiver = await startReceiver();
  // No issuer: a readable certificate confirmed with process_type sync waits in review at once.
  api = await startApi({ dynamoEndpoint: proxy.endpoint, issuer: false });
  owner = await api.portalUser("owner");
  await api.portalUser("viewer", owner.organizationId);
  orgApp = await api.organizationApp(owner.organizationId, receiver.url);
  await api.organizationApp(owner.organizationId);
  customer = new Customer(api.baseUrl, orgApp.api_key);
  [reviewer, admin] = await Promise.all([api.staffUser(["reviewers"]), api.staffUser(["admins"])]);
  for (let n = 0; n < 2; n += 1) {
    await customer.created();
    const created = await customer.created({ file_size_bytes: certificate.length, process_type: "sync" });
    expect((await upload(created, certificate)).status).toBe(200);
    expect(expectVerification(await customer.confirm(created.verification_id)).status).toBe("in_review");
    // Two test events of one app in a row: the second in a window of its own (`SENDING_LIMITS`).
    await api.newSendingWindow(orgApp.app_id, "test");
    const tested = await portal("POST", `/portal/v1/apps/${orgApp.app_id}/webhook/test`);
    expect(tested.status, tested.text).toBe(200);
  }
});

afterAll(async () => {
  await api?.stop();
  await receiver?.stop();
  await proxy?.stop();
});

function portal(method: string, route: string): Promise<Reply> {
  return call(api.portalUrl, method, route, { headers: { Authorization: `Bearer ${owner.accessToken}` } });
}

function staff(user: StaffUser, route: string): Promise<Reply> {
  return call(api.backofficeUrl, "GET", route, { headers: { Authorization: `Bearer ${user.accessToken}` } });
}

/** `send`'s reply and the DynamoDB calls made while it ran. */
async function counted(send: () => Promise<Reply>): Promise<{ reply: Reply; calls: number }> {
  const before = proxy.counts().requests;
  const reply = await send();
  return { reply, calls: proxy.counts().requests - before };
}

const forge = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
/** `route` with `limit` and, when given, `cursor` added to its query. */
const paged = (route: string, cursor: string | undefined, limit = 20) =>
  `${route}${route.includes("?") ? "&" : "?"}limit=${limit}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;

const ULID = "01JZ3NDEKTSV4RRFFQ69G5FAVA";
const OVERLONG = "x".repeat(200);
/** Values of the wrong type for any field of a position. */
const WRONG_TYPES: unknown[] = [0, -1, 1.5, true, null, [], ["a"], {}, { $ne: "" }];

interface ListRoute {
  name: string;
  /** The list called with `cursor` (and `limit`, when given). */
  list(cursor?: string, limit?: number): Promise<Reply>;
  /** A position of the shape the list hands out (naming no item), which it takes. */
  position: () => Record<string, unknown>;
  /** Per field, values of another shape than the store writes there, beside the ones every field is tried with. */
  foreign: Record<string, unknown[]>;
}

const iso = (ms: number) => isoSeconds(new Date(ms));
const instants = [
  "",
  "2026-01-01",
  "2026-01-01 00:00:00",
  "2026-01-01T00:00:00.5Z",
  "2026-13-01T00:00:00Z",
  "2026-01-01T00:00:00+03:00",
  "now",
];

const ROUTES: ListRoute[] = [
  {
    name: "GET /v1/verifications",
    list: (cursor, limit) =>
      call(api.baseUrl, "GET", paged("/v1/verifications", cursor, limit), { headers: { "X-API-Key": orgApp.api_key } }),
    position: () => ({ created_at: "2026-01-01T00:00:00Z", id: `ver_${ULID}` }),
    foreign: { created_at: instants, id: [`app_${ULID}`, "ver_", `ver_${ULID.toLowerCase()}`, `VER#ver_${ULID}`] },
  },
  {
    name: "GET /portal/v1/verifications",
    list: (cursor, limit) => portal("GET", paged(`/portal/v1/verifications?app_id=${orgApp.app_id}`, cursor, limit)),
    position: () => ({ created_at: "2026-01-01T00:00:00Z", id: `ver_${ULID}` }),
    foreign: { created_at: instants, id: [`app_${ULID}`, "ver_", `ver_${ULID}x`] },
  },
  {
    name: "GET /portal/v1/apps",
    list: (cursor, limit) => portal("GET", paged("/portal/v1/apps", cursor, limit)),
    position: () => ({ app_id: `app_${ULID}` }),
    foreign: { app_id: [`ver_${ULID}`, "app_", `APP#app_${ULID}`, `app_${ULID} `] },
  },
  {
    name: "GET /portal/v1/users",
    list: (cursor, limit) => portal("GET", paged("/portal/v1/users", cursor, limit)),
    position: () => ({ username: "dev-owner", sub: "8b0c2f7e-3f6a-4c1e-9a57-0d5c1b9e2f41" }),
    foreign: {
      username: [" ", "two words", "tab\there", "nul\u0000", "x".repeat(129)],
      sub: ["MEMBER#", "not-a-uuid", "8b0c2f7e3f6a4c1e9a570d5c1b9e2f41", "8b0c2f7e-3f6a-4c1e-9a57-0d5c1b9e2f41#"],
    },
  },
  {
    name: "GET /portal/v1/apps/{app_id}/deliveries",
    list: (cursor, limit) => portal("GET", paged(`/portal/v1/apps/${orgApp.app_id}/deliveries`, cursor, limit)),
    position: () => ({
      attempted_at: "2026-01-01T00:00:00Z",
      pk: `EVT#evt_${ULID}`,
      sk: "ATTEMPT#2026-01-01T00:00:00Z#01#0a1b2c3d",
    }),
    foreign: {
      attempted_at: instants,
      pk: ["EVT#", "EVENT", `evt_${ULID}`, `EVT#app_${ULID}`, `APP#app_${ULID}`, `EVT#evt_${ULID}#`],
      sk: [
        "ATTEMPT#",
        "EVENT",
        "ATTEMPT#2026-01-01T00:00:00Z",
        "ATTEMPT#2026-01-01T00:00:00Z#01#zzzzzzzz",
        // Another attempt's time than the position's.
        "ATTEMPT#2026-01-02T00:00:00Z#01#0a1b2c3d",
        "ATTEMPT#yesterday#01#0a1b2c3d",
      ],
    },
  },
  {
    name: "GET /backoffice/v1/reviews",
    list: (cursor, limit) => staff(reviewer, paged("/backoffice/v1/reviews", cursor, limit)),
    position: () => ({ deadline: iso(Date.now() + DAY_MS), id: `ver_${ULID}` }),
    foreign: {
      deadline: [
        ...instants,
        // Long before any window still open, or after any window opened now closes.
        "2000-01-01T00:00:00Z",
        iso(Date.now() - 30 * DAY_MS),
        iso(Date.now() + REVIEW_WINDOW_SECONDS.sandbox * 1000 + 3 * DAY_MS),
        "9999-12-31T23:59:59Z",
      ],
      id: [`app_${ULID}`, "ver_"],
    },
  },
  {
    name: "GET /backoffice/v1/audit",
    list: (cursor, limit) => staff(admin, paged("/backoffice/v1/audit", cursor, limit)),
    position: () => ({ before: `aud_${ULID}` }),
    foreign: {
      // A ULID's time is 48 bits: past 7ZZZZZZZZZ it overflows, and from 7ZZ... it is past the year 9999.
      before: ["aud_", `ver_${ULID}`, "aud_ZZZZZZZZZZZZZZZZZZZZZZZZZZ", "aud_7ZZZZZZZZZZZZZZZZZZZZZZZZZ"],
    },
  },
];

/** Cursors of no list: not base64url JSON, or JSON that is no position. */
const NOT_POSITIONS = [
  "",
  "not a cursor",
  "%%%",
  Buffer.from("not json", "utf8").toString("base64url"),
  Buffer.from("{", "utf8").toString("base64url"),
  forge(null),
  forge("a string"),
  forge(42),
  forge([]),
  forge({}),
];

/** The forged cursors of `route`: each field emptied, overlong, mistyped, foreign-shaped or missing, and more fields. */
function forgeries(route: ListRoute): { label: string; cursor: string }[] {
  const forged: { label: string; cursor: string }[] = NOT_POSITIONS.map((cursor) => ({ label: cursor, cursor }));
  for (const field of Object.keys(route.position())) {
    for (const value of ["", OVERLONG, ...WRONG_TYPES, ...(route.foreign[field] ?? [])]) {
      forged.push({
        label: `${field}: ${JSON.stringify(value)}`,
        cursor: forge({ ...route.position(), [field]: value }),
      });
    }
    const { [field]: _missing, ...rest } = route.position();
    forged.push({ label: `no ${field}`, cursor: forge(rest) });
  }
  forged.push({ label: "another field", cursor: forge({ ...route.position(), extra: "x" }) });
  forged.push({ label: "the position as a list", cursor: forge([route.position()]) });
  return forged;
}

describe.each(ROUTES)("$name", (route) => {
  it("takes the next_cursor it handed out, and a position of the shape it hands out for no more reads than its first page", async () => {
    const first = await counted(() => route.list());
    expect(first.reply.status, first.reply.text).toBe(200);
    const ofOne = await route.list(undefined, 1);
    const { next_cursor: next } = ofOne.json as { next_cursor: string | null };
    expect(next).not.toBeNull();
    const second = await route.list(next ?? "", 1);
    expect(second.status, second.text).toBe(200);
    const { reply, calls } = await counted(() => route.list(forge(route.position())));
    expect(reply.status, reply.text).toBe(200);
    expect(calls).toBeLessThanOrEqual(first.calls + 1);
  });

  it("refuses every forged cursor with 400 invalid_cursor, before reading anything for it", async () => {
    for (const { label, cursor } of forgeries(route)) {
      expect(cursor.length, label).toBeLessThanOrEqual(512);
      const { reply, calls } = await counted(() => route.list(cursor));
      expect({ label, status: reply.status }, reply.text).toEqual({ label, status: 400 });
      expectProblem(reply, 400, "invalid_cursor");
      expect(calls, label).toBeLessThanOrEqual(REFUSAL_CALLS);
    }
  });
});

describe("GET /v1/events", () => {
  const events = (parameters: string) =>
    call(api.baseUrl, "GET", `/v1/events?${parameters}`, { headers: { "X-API-Key": orgApp.api_key } });

  it("takes its next_cursor as after, and refuses a forged one as the after it is, before reading anything", async () => {
    const first = await events("limit=1");
    expect(first.status, first.text).toBe(200);
    const { next_cursor: next } = first.json as { next_cursor: string | null };
    expect(next).not.toBeNull();
    expect((await events(`limit=1&after=${encodeURIComponent(next ?? "")}`)).status).toBe(200);
    for (const after of [
      "",
      " ",
      OVERLONG,
      "evt_",
      `ver_${ULID}`,
      `evt_${ULID.toLowerCase()}`,
      forge({ after: next }),
    ]) {
      const { reply, calls } = await counted(() => events(`after=${encodeURIComponent(after)}`));
      expect({ after, status: reply.status }, reply.text).toEqual({ after, status: 422 });
      expectProblem(reply, 422, "validation_failed");
      expect(calls, after).toBeLessThanOrEqual(REFUSAL_CALLS);
    }
  });
});

describe("the lists filtered by status", () => {
  // Two awaiting their upload and two in review (beforeAll); none of any other status.
  const expected: Record<Status, number> = {
    awaiting_upload: 2,
    processing: 0,
    in_review: 2,
    completed: 0,
    failed: 0,
    expired: 0,
  };

  it.each(STATUSES)(
    "answers %s with exactly the verifications of that status, on the public list and the portal's search",
    async (status) => {
      const listed = await call(api.baseUrl, "GET", `/v1/verifications?status=${status}`, {
        headers: { "X-API-Key": orgApp.api_key },
      });
      expect(listed.status, listed.text).toBe(200);
      const publicStatuses = (listed.json as { data: { status: string }[] }).data.map((one) => one.status);
      expect(publicStatuses).toEqual(Array(expected[status]).fill(status));
      const searched = await portal("GET", `/portal/v1/verifications?app_id=${orgApp.app_id}&status=${status}`);
      expect(searched.status, searched.text).toBe(200);
      expect((searched.json as { data: { status: string }[] }).data.map((one) => one.status)).toEqual(publicStatuses);
    },
  );
});
