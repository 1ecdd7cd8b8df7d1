/**
 * Property-based fuzzing of the backoffice API over HTTP: any route, method, token, query,
 * If-Match and body. Whatever arrives, it never answers 5xx, every error is problem+json with
 * a contract code (every reply is checked against openapi-backoffice.json by `call`), and only
 * an action that succeeded leaves an audit record.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { BACKOFFICE_ROUTES } from "#shared/declarations/backoffice-api";
import type { StaffUser } from "../support/api.ts";
import { fuzzAudited } from "../support/audited-fuzz.ts";
import { call, expectVerification, type Reply, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 1313);
const NUM_RUNS = 20;
const BATCH = 50;

const fx = useApiFixture({ issuer: false });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));
// Reading the audit trail is recorded too: it names people and their addresses.
const AUDITED = new Set([
  "claim-review",
  "decide-review",
  "ask-issuer-again",
  "inspect-verification",
  "view-document",
  "read-audit",
]);
const API_ROUTES = BACKOFFICE_ROUTES.filter((route) => route.path.startsWith("/backoffice/v1/"));

let reviewer: StaffUser;
let admin: StaffUser;
const waiting: string[] = [];

beforeAll(async () => {
  [reviewer, admin] = await Promise.all([fx.api.staffUser(["reviewers"]), fx.api.staffUser(["admins"])]);
  for (let i = 0; i < 3; i += 1) {
    const created = await fx.customer.created({ file_size_bytes: certificate.length, process_type: "sync" });
    await upload(created, certificate);
    waiting.push(expectVerification(await fx.customer.confirm(created.verification_id)).verification_id);
  }
});

const text = fc.string({ unit: "grapheme", maxLength: 80 });
const headerValue = fc
  .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 })
  .map((value) => value.trim());

const token = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("reviewer", "admin") },
  { weight: 1, arbitrary: fc.constant("none") },
  { weight: 1, arbitrary: headerValue.map((value) => `Bearer ${value}`) },
  { weight: 1, arbitrary: headerValue },
);

const parameter = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 1, 2).map((i) => `known:${i}`) },
  { weight: 1, arbitrary: fc.stringMatching(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/) },
  { weight: 1, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom("", ".", "..", "%00", "ver_", "x/y") },
);

const query = fc.dictionary(
  fc.oneof(fc.constantFrom("limit", "cursor", "copy", "verification_id", "actor"), fc.string({ maxLength: 10 })),
  fc.oneof(fc.constantFrom("1", "20", "100", "0", "-1", "1e3", "upload", "issuer", "x"), text),
  { maxKeys: 3 },
);

const decision = fc.oneof(
  fc.record(
    {
      result: fc.oneof(fc.constantFrom("verified", "rejected"), text),
      reason_code: fc.oneof(fc.constantFrom("not_genuine", "other", "verified"), text),
      note: fc.oneof(fc.string({ maxLength: 1100 }), fc.integer()),
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
  ifMatch: fc.option(fc.oneof(fc.constantFrom('"1"', '"2"', '"3"', "*", 'W/"2"'), headerValue), { freq: 2 }),
  body: fc.option(
    decision.map((value) => JSON.stringify(value)),
    { freq: 4 },
  ),
  contentType: fc.constantFrom("application/json", "text/plain", ""),
});
type FuzzCase = typeof fuzzCase extends fc.Arbitrary<infer T> ? T : never;

function authorization(choice: string): Record<string, string> {
  if (choice === "none") return {};
  if (choice === "reviewer") return { Authorization: `Bearer ${reviewer.accessToken}` };
  if (choice === "admin") return { Authorization: `Bearer ${admin.accessToken}` };
  return { Authorization: choice };
}

function send(testCase: FuzzCase): Promise<Reply> {
  const known = /^known:(\d)$/.exec(testCase.parameter);
  const value = known ? (waiting[Number(known[1])] ?? "") : encodeURIComponent(testCase.parameter);
  const search = new URLSearchParams(testCase.query).toString();
  const route = `${testCase.route.path.replace(/\{[^}]+\}/g, value)}${search ? `?${search}` : ""}`;
  const method = testCase.method === "declared" ? testCase.route.method : testCase.method;
  return call(fx.api.backofficeUrl, method, route, {
    headers: {
      ...authorization(testCase.token),
      ...(testCase.contentType ? { "Content-Type": testCase.contentType } : {}),
      ...(testCase.ifMatch === null ? {} : { "If-Match": testCase.ifMatch }),
    },
    body: method === "POST" && testCase.body !== null ? testCase.body : undefined,
  });
}

describe(`fuzzing the backoffice API (seed ${SEED}, ${NUM_RUNS * BATCH} requests)`, () => {
  it("never answers 5xx, answers every error as problem+json, and audits only what succeeded", async () => {
    const statuses = await fuzzAudited({
      api: fx.api,
      seed: SEED,
      runs: NUM_RUNS,
      batch: BATCH,
      cases: fuzzCase,
      send,
      audited: (testCase) => AUDITED.has(testCase.route.function),
    });
    console.log(`backoffice/fuzz: seed ${SEED}, ${NUM_RUNS * BATCH} requests; replies ${JSON.stringify(statuses)}`);
  });
});
