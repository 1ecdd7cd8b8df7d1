/**
 * Property-based fuzzing over HTTP: the create body, every header a request carries, and
 * the path id. Whatever arrives, the API never answers 5xx, every error is problem+json
 * with a contract code (and every reply matches openapi.json, checked by `call`), and a
 * refused request stores nothing.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "#shared/declarations/public-api";
import { methodsByPath } from "#shared/declarations/routes";
import { startApi, type TestApi } from "../support/api.ts";
import { call, expectProblem, type Reply } from "../support/client.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 4242);
/** numRuns × BATCH cases; each run sends its batch at once, so shrinking still works per run. */
const NUM_RUNS = 200;
const BATCH = 50;

let api: TestApi;
let apiKey: string;

beforeAll(async () => {
  api = await startApi();
  apiKey = (await api.newApp()).api_key;
});
afterAll(() => api.stop());

/** Header values as HTTP carries them: visible ASCII, spaces, tabs and Latin-1 bytes. */
const headerValue = fc
  .string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 300,
  })
  .map((value) => value.trim());
const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,30}$/);
const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Mostly the valid value, sometimes left out, sometimes something else entirely. */
function field<T>(valid: fc.Arbitrary<T>, ...invalid: fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 12, arbitrary: valid },
    { weight: 1, arbitrary: fc.constant(undefined) },
    ...invalid.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/** A body near the valid one: every field kept, left out, or replaced, sometimes with a stranger. */
const nearValidBody = fc
  .record({
    document_type: field(fc.constant("YOK_STUDENT"), fc.string(), anyJson),
    process_type: field(fc.constantFrom("async", "sync", undefined), fc.string(), anyJson),
    external_reference_id: field(fc.string({ minLength: 1, maxLength: 140 }), anyJson),
    original_filename: field(
      fc.constantFrom("belge.pdf", "scan.JPG", "a.png", "x.jpeg"),
      fc.constantFrom("no-extension", "../etc/passwd.pdf", "a\\b.pdf", "doc.exe"),
      fc.string({ unit: "grapheme", maxLength: 300 }).map((name) => `${name}.pdf`),
      anyJson,
    ),
    file_size_bytes: field(fc.integer({ min: 1, max: 10_485_760 }), fc.integer(), fc.double(), fc.string(), anyJson),
  })
  .chain((fields) =>
    fc
      .option(fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), anyJson), { freq: 6 })
      .map((extra) => JSON.stringify(extra ? { ...fields, [extra[0]]: extra[1] } : fields)),
  );

const body = fc.oneof(
  { weight: 6, arbitrary: nearValidBody },
  { weight: 2, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 16_000, maxLength: 17_000 }) },
);

type Key = "valid" | "none" | { value: string };
const apiKeyChoice: fc.Arbitrary<Key> = fc.oneof(
  { weight: 12, arbitrary: fc.constant("valid" as const) },
  { weight: 1, arbitrary: fc.constant("none" as const) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        headerValue,
        fc.string().map((s) => `vk_sandbox_${s}`),
      )
      .map((value) => ({ value })),
  },
);

const createCase = fc.record({
  kind: fc.constant("create" as const),
  body,
  key: apiKeyChoice,
  contentType: fc.option(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8") },
      { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/problem+json", "APPLICATION/JSON") },
      { weight: 1, arbitrary: headerValue },
    ),
    { freq: 12 },
  ),
  idempotencyKey: fc.option(
    fc.oneof(
      { weight: 8, arbitrary: fc.uuid().map((uuid) => `fuzz-${uuid}`) },
      { weight: 1, arbitrary: headerValue },
      { weight: 1, arbitrary: fc.constantFrom("a", "same-key", "x".repeat(255), "x".repeat(256)) },
    ),
    { freq: 12 },
  ),
  extraHeaders: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
});

const pathCase = fc.record({
  kind: fc.constantFrom("get" as const, "confirm" as const),
  id: fc.oneof(
    fc.stringMatching(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/),
    fc.string({ unit: "grapheme", maxLength: 60 }),
    fc.constantFrom("", ".", "..", "ver_", "%00", "ver_01ARZ3NDEKTSV4RRFFQ69G5FAV/extra"),
  ),
  key: apiKeyChoice,
  extraHeaders: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
});

type Case = CreateCase | PathCase;
type CreateCase = typeof createCase extends fc.Arbitrary<infer T> ? T : never;
type PathCase = typeof pathCase extends fc.Arbitrary<infer T> ? T : never;

function keyHeader(key: Key): Record<string, string> {
  if (key === "none") return {};
  return { "X-API-Key": key === "valid" ? apiKey : key.value };
}

async function send(testCase: Case): Promise<Reply> {
  if (testCase.kind === "create") {
    return call(api.baseUrl, "POST", "/v1/verifications", {
      headers: {
        ...testCase.extraHeaders,
        ...keyHeader(testCase.key),
        ...(testCase.contentType === null ? {} : { "Content-Type": testCase.contentType }),
        ...(testCase.idempotencyKey === null ? {} : { "Idempotency-Key": testCase.idempotencyKey }),
      },
      body: testCase.body,
    });
  }
  const { method, path } = pathOf(testCase);
  return call(api.baseUrl, method, path, {
    headers: { ...testCase.extraHeaders, ...keyHeader(testCase.key) },
  });
}

/** The public API's paths as templates, each with the methods it takes. */
const PATHS = [...methodsByPath(ROUTES)].map(([template, methods]) => ({
  regex: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
  parameters: template.split("{").length - 1,
  methods,
}));

function pathOf(testCase: PathCase): { method: string; path: string } {
  const id = encodeURIComponent(testCase.id);
  return testCase.kind === "get"
    ? { method: "GET", path: `/v1/verifications/${id}` }
    : { method: "POST", path: `/v1/verifications/${id}/upload-complete` };
}

/**
 * What a path case with a valid key must answer, once the URL resolves its path as every HTTP
 * client does: the list (200) when it names the list, 405 when it names a path that takes
 * other methods (`./upload-complete` is an id's path), otherwise no verification of this app (404).
 */
function expectedStatus(testCase: PathCase): number {
  const { method, path } = pathOf(testCase);
  const resolved = new URL(path, "http://localhost").pathname.replace(/(.)\/$/, "$1");
  // As API Gateway matches: a literal segment before a parameter.
  const [best] = PATHS.filter(({ regex }) => regex.test(resolved)).sort((a, b) => a.parameters - b.parameters);
  if (best && !best.methods.includes(method)) return 405;
  return resolved === "/v1/verifications" ? 200 : 404;
}

describe(`fuzzing the public routes (seed ${SEED}, ${NUM_RUNS * BATCH} cases)`, () => {
  it("never answers 5xx, always problem+json with a contract code, and stores nothing it refuses", async () => {
    const statuses: Record<string, number> = {};
    let cases = 0;
    let created = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 3, arbitrary: createCase }, pathCase), { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const before = await Promise.all([api.count(api.tables.verifications), api.count(api.tables.idempotency)]);
          const replies = await Promise.all(batch.map(send));
          let fresh = 0;
          replies.forEach((reply, i) => {
            const testCase = batch[i] as Case;
            const code = (reply.json as { code?: string } | undefined)?.code ?? "";
            statuses[`${reply.status} ${code}`.trim()] = (statuses[`${reply.status} ${code}`.trim()] ?? 0) + 1;
            expect(reply.status, `${JSON.stringify(testCase)} -> ${reply.text}`).toBeLessThan(500);
            if (reply.status >= 400) expectProblem(reply, reply.status, code);
            else if (testCase.kind === "create" && reply.headers.get("idempotent-replayed") !== "true") fresh += 1;
            if (testCase.kind !== "create" && testCase.key === "valid") {
              expect(reply.status).toBe(expectedStatus(testCase));
            }
          });
          cases += batch.length;
          created += fresh;
          // Only the accepted, first-time creates may add a verification and a key record each.
          const after = await Promise.all([api.count(api.tables.verifications), api.count(api.tables.idempotency)]);
          expect(after).toEqual([before[0] + fresh, before[1] + fresh]);
        },
      ),
      { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
    );
    expect(cases).toBe(NUM_RUNS * BATCH);
    console.log(
      `resilience/fuzz: seed ${SEED}, ${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ${created} accepted creates; replies ${JSON.stringify(statuses)}`,
    );
  }, 120_000);
});
