import { describe, expect, it } from "vitest";
import { ServiceError } from "#shared/domain/errors";
import { MAX_BODY_BYTES, refuseEdges } from "#shared/http/edges";

type Event = Parameters<typeof refuseEdges>[0];

function event(fields: Partial<Event> = {}): Event {
  return { body: null, isBase64Encoded: false, headers: {}, multiValueHeaders: {}, ...fields };
}

function codeOf(request: Event): string | undefined {
  try {
    refuseEdges(request);
    return undefined;
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

const base64 = (bytes: Buffer | string) => ({ body: Buffer.from(bytes).toString("base64"), isBase64Encoded: true });

describe("refuseEdges", () => {
  it("lets an ordinary request through", () => {
    expect(
      codeOf(
        event({
          headers: { "X-API-Key": "k", "Idempotency-Key": "i", "Content-Type": "application/json" },
          multiValueHeaders: { "X-API-Key": ["k"], "Idempotency-Key": ["i"], "Content-Type": ["application/json"] },
          ...base64('{"a":"ş"}'),
        }),
      ),
    ).toBeUndefined();
  });

  it.each(["X-API-Key", "Idempotency-Key"])("refuses %s sent twice, in one spelling or two", (name) => {
    expect(codeOf(event({ multiValueHeaders: { [name]: ["a", "b"] } }))).toBe("duplicate_header");
    expect(codeOf(event({ multiValueHeaders: { [name]: ["a"], [name.toLowerCase()]: ["a"] } }))).toBe(
      "duplicate_header",
    );
  });

  it("refuses any Content-Encoding but identity", () => {
    expect(codeOf(event({ headers: { "Content-Encoding": "gzip" } }))).toBe("unsupported_media_type");
    expect(codeOf(event({ multiValueHeaders: { "content-encoding": ["br"] } }))).toBe("unsupported_media_type");
    expect(codeOf(event({ headers: { "Content-Encoding": "identity" } }))).toBeUndefined();
  });

  it("counts the body limit in bytes, not characters, base64 or not", () => {
    expect(codeOf(event({ body: "a".repeat(MAX_BODY_BYTES) }))).toBeUndefined();
    expect(codeOf(event({ body: "ş".repeat(MAX_BODY_BYTES / 2 + 1) }))).toBe("payload_too_large");
    expect(codeOf(event(base64("a".repeat(MAX_BODY_BYTES))))).toBeUndefined();
    expect(codeOf(event(base64("a".repeat(MAX_BODY_BYTES + 1))))).toBe("payload_too_large");
  });

  it("refuses a body that is not UTF-8", () => {
    expect(codeOf(event(base64(Buffer.from([0x7b, 0xff, 0x7d]))))).toBe("malformed_json");
    expect(codeOf(event(base64(Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d]))))).toBe("malformed_json");
  });
});
