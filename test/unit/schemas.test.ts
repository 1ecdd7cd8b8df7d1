import { describe, expect, it } from "vitest";
import { ServiceError, ValidationError } from "#shared/domain/errors";
import { assertJsonContentType, parseCreateBody, parseIdempotencyKey } from "#shared/http/requests";

const body = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({ document_type: "YOK_STUDENT", original_filename: "a.pdf", file_size_bytes: 1, ...overrides });

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof ServiceError ? error.code : "not a ServiceError";
  }
}

function fieldCodes(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (error) {
    return error instanceof ValidationError
      ? error.fields.map((e) => `${e.field}:${e.code}`)
      : ["not a ValidationError"];
  }
}

describe("the create body", () => {
  it("defaults process_type to async and keeps what was sent", () => {
    expect(parseCreateBody(body({ external_reference_id: "ref" }))).toEqual({
      document_type: "YOK_STUDENT",
      process_type: "async",
      external_reference_id: "ref",
      original_filename: "a.pdf",
      file_size_bytes: 1,
    });
  });

  it("accepts the bounds and refuses one past them", () => {
    expect(fieldCodes(() => parseCreateBody(body({ file_size_bytes: 10 * 1024 * 1024 })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ file_size_bytes: 10 * 1024 * 1024 + 1 })))).toEqual([
      "file_size_bytes:too_large",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: `${"n".repeat(251)}.pdf` })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: `${"n".repeat(252)}.pdf` })))).toEqual([
      "original_filename:too_long",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ external_reference_id: "r".repeat(128) })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ external_reference_id: "r".repeat(129) })))).toEqual([
      "external_reference_id:too_long",
    ]);
  });

  it("keeps metadata and expected_subject as sent", () => {
    const metadata = { customer_id: "cus_8812", "plan.tier": "gold-2" };
    const expected_subject = { full_name: "Ayşe Yılmaz", birth_date: "2004-03-17" };
    expect(parseCreateBody(body({ metadata, expected_subject }))).toMatchObject({ metadata, expected_subject });
    expect(parseCreateBody(body({ metadata: {} }))).toMatchObject({ metadata: {} });
  });

  it("holds metadata to 20 keys of 1 to 40 safe characters and values of at most 500", () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    expect(fieldCodes(() => parseCreateBody(body({ metadata: keys(20) })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ metadata: keys(21) })))).toEqual(["metadata:too_many_keys"]);
    expect(fieldCodes(() => parseCreateBody(body({ metadata: { ["k".repeat(40)]: "v" } })))).toEqual([]);
    for (const key of ["k".repeat(41), "", "with space", "ümlaut", "a/b"]) {
      expect(fieldCodes(() => parseCreateBody(body({ metadata: { [key]: "v" } })))).toEqual(["metadata:invalid_key"]);
    }
    expect(fieldCodes(() => parseCreateBody(body({ metadata: { k: "v".repeat(500) } })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ metadata: { k: "v".repeat(501) } })))).toEqual([
      "metadata.k:too_long",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ metadata: { k: 5 } })))).toEqual(["metadata.k:invalid_type"]);
    expect(fieldCodes(() => parseCreateBody(body({ metadata: ["v"] })))).toEqual(["metadata:invalid_type"]);
  });

  it("refuses an expected_subject that is empty, malformed or has fields of its own", () => {
    expect(fieldCodes(() => parseCreateBody(body({ expected_subject: {} })))).toEqual(["expected_subject:empty"]);
    expect(fieldCodes(() => parseCreateBody(body({ expected_subject: { birth_date: "17.03.2004" } })))).toEqual([
      "expected_subject.birth_date:invalid_format",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ expected_subject: { birth_date: "2004-02-30" } })))).toEqual([
      "expected_subject.birth_date:invalid_format",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ expected_subject: { full_name: "" } })))).toEqual([
      "expected_subject.full_name:too_short",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ expected_subject: { full_name: "A", tckn: "1" } })))).toEqual([
      "expected_subject.tckn:unknown_field",
    ]);
  });

  it("takes document_keys instead of a file, exactly one of the two, naming both otherwise", () => {
    const keys = { barcode: "TESTYOK-0001-AKTIF", identity_number: "10000000146" };
    const byKeys = (overrides: Record<string, unknown> = {}) =>
      JSON.stringify({ document_type: "YOK_STUDENT", document_keys: keys, ...overrides });
    expect(parseCreateBody(byKeys({ max_document_age_days: 30 }))).toEqual({
      document_type: "YOK_STUDENT",
      process_type: "async",
      document_keys: keys,
      max_document_age_days: 30,
    });
    expect(fieldCodes(() => parseCreateBody(body({ document_keys: keys })))).toEqual([
      "document_keys:conflict",
      "original_filename:conflict",
    ]);
    expect(fieldCodes(() => parseCreateBody(JSON.stringify({ document_type: "YOK_STUDENT" })))).toEqual([
      "document_keys:required",
      "original_filename:required",
    ]);
    expect(fieldCodes(() => parseCreateBody(byKeys({ document_keys: { ...keys, barcode: "short" } })))).toEqual([
      "document_keys.barcode:invalid_format",
    ]);
    expect(
      fieldCodes(() => parseCreateBody(byKeys({ document_keys: { ...keys, identity_number: "10000000147" } }))),
    ).toEqual(["document_keys.identity_number:invalid_identity_number"]);
    expect(fieldCodes(() => parseCreateBody(byKeys({ document_keys: { barcode: keys.barcode } })))).toEqual([
      "document_keys.identity_number:required",
    ]);
  });

  it("never repeats a refused identity number in its message", () => {
    for (const value of ["10000000147", "1000000014", "01000000146"]) {
      try {
        parseCreateBody(body({ expected_subject: { identity_number: value } }));
        throw new Error("accepted");
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        const { fields } = error as ValidationError;
        expect(fields.map((field) => `${field.field}:${field.code}`)).toEqual([
          "expected_subject.identity_number:invalid_identity_number",
        ]);
        expect(JSON.stringify(fields)).not.toContain(value);
      }
    }
  });

  it("takes max_document_age_days from 1 to 3650", () => {
    expect(fieldCodes(() => parseCreateBody(body({ max_document_age_days: 1 })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ max_document_age_days: 3650 })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ max_document_age_days: 0 })))).toEqual([
      "max_document_age_days:too_small",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ max_document_age_days: 3651 })))).toEqual([
      "max_document_age_days:too_large",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ max_document_age_days: 1.5 })))).toEqual([
      "max_document_age_days:invalid_type",
    ]);
  });

  it("tells a missing field from one of the wrong type", () => {
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: 5 })))).toEqual([
      "original_filename:invalid_type",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: undefined })))).toEqual([
      "original_filename:required",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ file_size_bytes: null })))).toEqual([
      "file_size_bytes:invalid_type",
    ]);
  });

  it("checks the extension against the document type, whatever its case", () => {
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: "SCAN.PNG" })))).toEqual([]);
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: "scan.gif" })))).toEqual([
      "original_filename:extension_not_allowed",
    ]);
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: "pdf" })))).toEqual([
      "original_filename:extension_not_allowed",
    ]);
  });

  it.each(["a/b.pdf", "a\\b.pdf", "a\nb.pdf", "a\u0000.pdf"])("refuses the file name %j", (name) => {
    expect(fieldCodes(() => parseCreateBody(body({ original_filename: name })))).toEqual([
      "original_filename:invalid_format",
    ]);
  });

  it("says in zod's English what is wrong with a malformed field, though the functions load only zod/mini", () => {
    // zod/mini loads no messages of its own: without shared/domain/zod.ts every one would read "Invalid input".
    try {
      parseCreateBody(body({ expected_subject: { birth_date: "17.03.2004" } }));
      expect.unreachable();
    } catch (error) {
      expect(error instanceof ValidationError ? error.fields : error).toEqual([
        { field: "expected_subject.birth_date", code: "invalid_format", message: "Invalid ISO date" },
      ]);
    }
  });

  it("accepts non-ASCII references and file names", () => {
    expect(
      fieldCodes(() =>
        parseCreateBody(body({ original_filename: "öğrenci belgesi.pdf", external_reference_id: "öğr-1" })),
      ),
    ).toEqual([]);
  });

  it.each(["", "{", "[]", "1", '"text"', "null"])("answers malformed_json for %j", (text) => {
    expect(codeOf(() => parseCreateBody(text))).toBe("malformed_json");
  });
});

describe("the create headers", () => {
  it("takes 1 to 255 printable ASCII characters as Idempotency-Key", () => {
    expect(parseIdempotencyKey("a")).toBe("a");
    expect(parseIdempotencyKey("k".repeat(255))).toBe("k".repeat(255));
    expect(codeOf(() => parseIdempotencyKey(undefined))).toBe("idempotency_key_missing");
    expect(codeOf(() => parseIdempotencyKey(""))).toBe("idempotency_key_invalid");
    expect(codeOf(() => parseIdempotencyKey("k".repeat(256)))).toBe("idempotency_key_invalid");
    expect(codeOf(() => parseIdempotencyKey("tab\tkey"))).toBe("idempotency_key_invalid");
  });

  it("takes application/json with parameters, in any case, and nothing else", () => {
    expect(codeOf(() => assertJsonContentType("application/json"))).toBeUndefined();
    expect(codeOf(() => assertJsonContentType("Application/JSON; charset=utf-8"))).toBeUndefined();
    for (const value of [undefined, "", "text/json", "application/jsonp", "application/problem+json"]) {
      expect(codeOf(() => assertJsonContentType(value))).toBe("unsupported_media_type");
    }
  });
});
