/**
 * The request edges, through the local gateway to the real handlers and engines: each is the
 * contract's problem+json with a Request-Id, and nothing is stored.
 */
import { describe, expect, it } from "vitest";
import { call, expectProblem, rawCall, validBody } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture();

const json = (body: unknown) => Buffer.from(JSON.stringify(body));

async function verificationsOfApp(): Promise<number> {
  return (await fx.api.scan(fx.api.tables.verifications)).filter((item) => item.app_id === fx.app.app_id).length;
}

describe("request edges", () => {
  const twice: [string, (key: string) => [string, string][]][] = [
    [
      "X-API-Key sent twice, even the same valid key",
      (key) => [
        ["Idempotency-Key", crypto.randomUUID()],
        ["X-API-Key", key],
        ["X-API-Key", key],
      ],
    ],
    [
      "Idempotency-Key sent twice",
      (key) => [
        ["X-API-Key", key],
        ["Idempotency-Key", "one"],
        ["idempotency-key", "two"],
      ],
    ],
  ];
  it.each(twice)("refuses %s (400 duplicate_header), and stores nothing", async (_what, headers) => {
    const before = await verificationsOfApp();
    const reply = await rawCall(
      fx.api.baseUrl,
      "POST",
      "/v1/verifications",
      [["Content-Type", "application/json"], ...headers(fx.app.api_key)],
      json(validBody()),
    );
    expectProblem(reply, 400, "duplicate_header");
    expect(await verificationsOfApp()).toBe(before);
  });

  it("refuses a body that is not UTF-8 (400 malformed_json)", async () => {
    const body = Buffer.concat([
      Buffer.from('{"document_type":"YOK_STUDENT","external_reference_id":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const reply = await rawCall(
      fx.api.baseUrl,
      "POST",
      "/v1/verifications",
      [
        ["Content-Type", "application/json"],
        ["X-API-Key", fx.app.api_key],
        ["Idempotency-Key", crypto.randomUUID()],
      ],
      body,
    );
    expectProblem(reply, 400, "malformed_json");
  });

  it("refuses a Content-Encoding (415 unsupported_media_type)", async () => {
    const reply = await rawCall(
      fx.api.baseUrl,
      "POST",
      "/v1/verifications",
      [
        ["Content-Type", "application/json"],
        ["Content-Encoding", "gzip"],
        ["X-API-Key", fx.app.api_key],
        ["Idempotency-Key", crypto.randomUUID()],
      ],
      json(validBody()),
    );
    expectProblem(reply, 415, "unsupported_media_type");
  });

  it.each([
    ["POST", "/v1/verifications/ver_01JD0000000000000000000000/upload-complete"],
    ["GET", "/v1/verifications"],
    ["POST", "/v1/verifications"],
  ])("refuses a body over 16 KiB on %s %s (413) before any credential is looked at", async (method, path) => {
    const reply = await rawCall(
      fx.api.baseUrl,
      method,
      path,
      [["Content-Type", "application/json"]],
      Buffer.alloc(16 * 1024 + 1, 0x20),
    );
    expectProblem(reply, 413, "payload_too_large");
  });

  it.each([
    ["PUT", "/v1/verifications", "POST, GET"],
    ["PATCH", "/v1/verifications/ver_01JD0000000000000000000000", "GET, DELETE"],
    ["GET", "/v1/verifications/ver_01JD0000000000000000000000/upload-complete", "POST"],
    ["POST", "/v1/events", "GET"],
  ])("answers %s %s with 405 and Allow: %s, before authentication", async (method, path, allow) => {
    const reply = await call(fx.api.baseUrl, method, path);
    expectProblem(reply, 405, "method_not_allowed");
    expect(reply.headers.get("allow")).toBe(allow);
  });

  it("answers a path with a malformed percent-encoding 404, as problem+json", async () => {
    const reply = await rawCall(fx.api.baseUrl, "GET", "/v1/verifications/%E0%A4%A", [["X-API-Key", fx.app.api_key]]);
    expectProblem(reply, 404, "route_not_found");
  });

  it("answers headers over 10 KiB with a problem+json and a Request-Id", async () => {
    const reply = await rawCall(fx.api.baseUrl, "GET", "/v1/verifications", [
      ["X-API-Key", fx.app.api_key],
      ["X-Padding", "p".repeat(11 * 1024)],
    ]);
    expectProblem(reply, 413, "payload_too_large");
  });
});
