/**
 * Property-based fuzzing of the request edges over raw HTTP: any method on any declared path
 * (or a broken one), credential and idempotency headers sent twice, encodings, and bodies of
 * any bytes around the 16 KiB limit. Whatever arrives: never a 5xx, every refusal problem+json
 * with a contract code and a Request-Id, and nothing stored for a request that was refused.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROUTES } from "#shared/declarations/public-api";
import { MAX_BODY_BYTES } from "#shared/http/edges";
import { isProblemCode } from "#shared/http/problems";
import { rawCall, validBody } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 5151);
const NUM_RUNS = 200;
const BATCH = 50;

const fx = useApiFixture();

const VERIFICATION = "ver_01ARZ3NDEKTSV4RRFFQ69G5FAV";
const declared = ROUTES.map((route) => ({
  method: route.method as string,
  path: route.path.replace("{verification_id}", VERIFICATION),
}));
/** Mostly a declared route as declared; else another method on it, or a broken or unknown path. */
const target = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...declared) },
  {
    weight: 2,
    arbitrary: fc.record({
      method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
      path: fc.constantFrom(
        ...declared.map((route) => route.path),
        "/v1/verifications/%E0%A4%A",
        "/v1/%zz",
        "/v1/verifications/%00",
        "/v1/../v1/events",
        "/",
      ),
    }),
  },
);
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constant<string[]>(["valid"]) },
  { weight: 1, arbitrary: fc.constant<string[]>(["valid", "valid"]) },
  { weight: 1, arbitrary: fc.constant<string[]>(["valid", "junk"]) },
  { weight: 1, arbitrary: fc.constant<string[]>([]) },
);
const idempotency = fc.array(fc.stringMatching(/^[!-~]{1,40}$/), { maxLength: 2 });
const encoding = fc.option(fc.constantFrom("gzip", "br", "identity", "deflate, gzip"), { freq: 4 });
const body = fc.oneof(
  { weight: 4, arbitrary: fc.constant(Buffer.from(JSON.stringify(validBody()))) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: MAX_BODY_BYTES - 2, max: MAX_BODY_BYTES + 2 }).map((size) => Buffer.alloc(size, 0x20)),
  },
  { weight: 1, arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d])) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const request = fc.record({ target, key, idempotency, encoding, body });
type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

function send(testCase: Request) {
  const headers: [string, string][] = [
    ...testCase.key.map((which): [string, string] => [
      "X-API-Key",
      which === "valid" ? fx.app.api_key : "vk_sandbox_junk",
    ]),
    ...testCase.idempotency.map((value): [string, string] => ["Idempotency-Key", value]),
    ...(testCase.encoding === null ? [] : [["Content-Encoding", testCase.encoding] as [string, string]]),
    ["Content-Type", "application/json"],
  ];
  return rawCall(fx.api.baseUrl, testCase.target.method, testCase.target.path, headers, testCase.body);
}

describe(`fuzzing the request edges (seed ${SEED}, ${NUM_RUNS * BATCH} requests)`, () => {
  it("never answers 5xx; every refusal is problem+json with a contract code and a Request-Id; refused creates store nothing", async () => {
    const statuses: Record<string, number> = {};
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const before = await fx.api.count(fx.api.tables.verifications);
        const replies = await Promise.all(batch.map(send));
        let created = 0;
        replies.forEach((reply, i) => {
          const testCase = batch[i] as Request;
          const code = (reply.json as { code?: string } | undefined)?.code ?? "";
          statuses[`${reply.status} ${code}`.trim()] = (statuses[`${reply.status} ${code}`.trim()] ?? 0) + 1;
          expect(
            reply.status,
            `${JSON.stringify({ ...testCase, body: testCase.body?.length })} -> ${reply.text}`,
          ).toBeLessThan(500);
          expect(reply.headers.get("request-id")).toMatch(/^[0-9a-f-]{36}$/);
          if (reply.status >= 400) {
            expect(reply.headers.get("content-type")).toBe("application/problem+json");
            expect(isProblemCode(code), code).toBe(true);
            expect(reply.text).not.toMatch(/\bat \S+:\d+|Exception|vk_sandbox_[A-Za-z0-9_-]{20}/);
          }
          if (reply.status === 201) created += 1;
        });
        cases += batch.length;
        expect(await fx.api.count(fx.api.tables.verifications)).toBe(before + created);
      }),
      { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
    );
    expect(cases).toBe(NUM_RUNS * BATCH);
    // Every edge was reached, and so were the routes behind it.
    for (const code of [
      "duplicate_header",
      "unsupported_media_type",
      "payload_too_large",
      "malformed_json",
      "method_not_allowed",
      "route_not_found",
    ]) {
      expect(
        Object.keys(statuses).some((status) => status.endsWith(code)),
        code,
      ).toBe(true);
    }
    console.log(`resilience/edges-fuzz: seed ${SEED}, ${cases} requests; replies ${JSON.stringify(statuses)}`);
  }, 180_000);
});
