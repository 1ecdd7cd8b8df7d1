/**
 * Property-based fuzzing of the portal API over HTTP: any route, method, token (an owner, a
 * viewer, another organisation's owner, none, junk), path parameter, query and body. Whatever
 * arrives, it never answers 5xx, every error is problem+json with a contract code (every reply is
 * checked against openapi-portal.json by `call`), another organisation never gets a 2xx about
 * this one's resources, and only an action that succeeded leaves an audit record.
 */
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { PORTAL_ROUTES } from "#shared/declarations/portal-api";
import type { PortalUser } from "../support/api.ts";
import { fuzzAudited } from "../support/audited-fuzz.ts";
import { call, type Reply } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 1414);
const NUM_RUNS = 20;
const BATCH = 50;

const fx = useApiFixture({ receiver: true });
const AUDITED = new Set([
  "create-app",
  "rotate-key",
  "revoke-key",
  "set-webhook",
  "rotate-webhook-secret",
  "test-webhook",
  "replay-event",
  "rename-key",
  "send-event",
  "list-app-events",
  "lookup-verifications",
  "search-verifications",
  "view-verification",
  "invite-member",
]);
const API_ROUTES = PORTAL_ROUTES.filter((route) => route.path.startsWith("/portal/v1/"));

let owner: PortalUser;
let viewer: PortalUser;
let stranger: PortalUser;
/** This organisation's app, key, event and verification, and the other organisation's app. */
const known: Record<string, string> = {};

beforeAll(async () => {
  owner = await fx.api.portalUser("owner");
  [viewer, stranger] = await Promise.all([
    fx.api.portalUser("viewer", owner.organizationId),
    fx.api.portalUser("owner"),
  ]);
  const app = await fx.api.organizationApp(owner.organizationId, fx.receiver.url);
  const other = await fx.api.organizationApp(stranger.organizationId);
  const headers = { Authorization: `Bearer ${owner.accessToken}` };
  const listed = await call(fx.api.portalUrl, "GET", "/portal/v1/apps", { headers });
  const keyId = (listed.json as { data: { app_id: string; keys: { key_id: string }[] }[] }).data.find(
    (candidate) => candidate.app_id === app.app_id,
  )?.keys[0]?.key_id;
  const tested = await call(fx.api.portalUrl, "POST", `/portal/v1/apps/${app.app_id}/webhook/test`, { headers });
  const created = await call(fx.api.baseUrl, "POST", "/v1/verifications", {
    headers: { "X-API-Key": app.api_key, "Content-Type": "application/json", "Idempotency-Key": "fuzz-seed" },
    body: JSON.stringify({ document_type: "YOK_STUDENT", original_filename: "a.pdf", file_size_bytes: 10 }),
  });
  Object.assign(known, {
    app: app.app_id,
    otherApp: other.app_id,
    key: keyId ?? "",
    event: (tested.json as { event_id: string }).event_id,
    verification: (created.json as { verification_id: string }).verification_id,
  });
});

const text = fc.string({ unit: "grapheme", maxLength: 60 });
const headerValue = fc
  .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 })
  .map((value) => value.trim());

const token = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("owner", "viewer", "stranger") },
  { weight: 1, arbitrary: fc.constant("none") },
  { weight: 1, arbitrary: headerValue.map((value) => `Bearer ${value}`) },
);

const parameter = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("known") },
  { weight: 1, arbitrary: fc.constant("otherApp") },
  { weight: 1, arbitrary: fc.stringMatching(/^(app|evt|ver)_[0-9A-HJKMNP-TV-Z]{26}$/) },
  { weight: 1, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom("", ".", "..", "%00", "key_", "x/y") },
);

const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom("limit", "cursor", "status", "app_id", "from", "to", "external_reference_id", "created_after"),
    fc.string({ maxLength: 10 }),
  ),
  fc.oneof(
    fc.constantFrom("1", "100", "0", "-1", "delivered", "failed", "completed", "2026-11-01", "2026-13-45", "known"),
    text,
  ),
  { maxKeys: 3 },
);

const body = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom("Admissions", " ", "x".repeat(101)), text),
      webhook_url: fc.oneof(fc.constantFrom("https://example.com/h", "http://10.0.0.1/h", "ftp://x"), text),
      url: fc.oneof(fc.constantFrom("https://example.com/h", "http://127.0.0.1:9/h", "javascript:x"), text),
      grace_seconds: fc.oneof(fc.integer({ min: -10, max: 700_000 }), text),
      username: fc.oneof(fc.stringMatching(/^[a-z]{3,10}$/), text),
      role: fc.oneof(fc.constantFrom("owner", "developer", "viewer", "admin"), text),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

const fuzzCase = fc.record({
  route: fc.constantFrom(...API_ROUTES),
  method: fc.oneof({ weight: 8, arbitrary: fc.constant("declared") }, fc.constantFrom("GET", "POST", "PUT", "DELETE")),
  parameter,
  token,
  query,
  body: fc.option(
    body.map((value) => JSON.stringify(value)),
    { freq: 4 },
  ),
  contentType: fc.constantFrom("application/json", "text/plain", ""),
});
type FuzzCase = typeof fuzzCase extends fc.Arbitrary<infer T> ? T : never;

function authorization(choice: string): Record<string, string> {
  const users: Record<string, PortalUser> = { owner, viewer, stranger };
  const user = users[choice];
  if (user) return { Authorization: `Bearer ${user.accessToken}` };
  return choice === "none" ? {} : { Authorization: choice };
}

/** A path parameter: this organisation's resource of that kind, the other's app, or the fuzzed text. */
function parameterValue(placeholder: string, parameter: string): string {
  if (parameter === "otherApp") return known.otherApp ?? "";
  if (parameter !== "known") return encodeURIComponent(parameter);
  const kind = { "{app_id}": "app", "{key_id}": "key", "{event_id}": "event", "{verification_id}": "verification" };
  return known[kind[placeholder as keyof typeof kind] ?? "app"] ?? "";
}

function send(testCase: FuzzCase): Promise<Reply> {
  const search = new URLSearchParams(
    Object.entries(testCase.query).map(([name, value]): [string, string] => [
      name,
      value === "known" ? (known.app ?? "") : value,
    ]),
  ).toString();
  const route = `${testCase.route.path.replace(/\{[^}]+\}/g, (placeholder) => parameterValue(placeholder, testCase.parameter))}${search ? `?${search}` : ""}`;
  const method = testCase.method === "declared" ? testCase.route.method : testCase.method;
  return call(fx.api.portalUrl, method, route, {
    headers: {
      ...authorization(testCase.token),
      ...(testCase.contentType ? { "Content-Type": testCase.contentType } : {}),
    },
    body: (method === "POST" || method === "PUT") && testCase.body !== null ? testCase.body : undefined,
  });
}

describe(`fuzzing the portal API (seed ${SEED}, ${NUM_RUNS * BATCH} requests)`, () => {
  it("never answers 5xx nor another organisation's resources, answers every error as problem+json, audits only what succeeded", async () => {
    const statuses = await fuzzAudited({
      api: fx.api,
      seed: SEED,
      runs: NUM_RUNS,
      batch: BATCH,
      cases: fuzzCase,
      send,
      audited(testCase) {
        // Another method on the same path is another route (GET and POST /portal/v1/apps).
        const method = testCase.method === "declared" ? testCase.route.method : testCase.method;
        const called = API_ROUTES.find((route) => route.method === method && route.path === testCase.route.path);
        return called !== undefined && AUDITED.has(called.function);
      },
      succeeded(testCase, reply) {
        const aboutOurs = testCase.parameter === "known" && /\{/.test(testCase.route.path);
        if (testCase.token === "stranger" && aboutOurs) {
          throw new Error(`Another organisation got ${reply.status} for ${JSON.stringify(testCase)}`);
        }
      },
    });
    console.log(`portal/fuzz: seed ${SEED}, ${NUM_RUNS * BATCH} requests; replies ${JSON.stringify(statuses)}`);
  }, 180_000);
});
