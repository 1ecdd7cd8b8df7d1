import { beforeAll, describe, expect, it } from "vitest";

import type { NewApp } from "#shared/use-cases/accounts/apps";
import { Customer, call, expectProblem, expectVerification, validBody } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture();

async function storedFor(appId: string) {
  return (await fx.api.scan(fx.api.tables.verifications)).filter((item) => item.app_id === appId);
}

describe("POST /v1/verifications", () => {
  it("creates a verification awaiting its upload, with Location and a signed upload URL", async () => {
    const reply = await fx.customer.create(validBody({ file_size_bytes: 183422 }));
    expect(reply.status).toBe(201);
    const verification = expectVerification(reply);
    expect(reply.headers.get("location")).toBe(`${fx.api.baseUrl}/v1/verifications/${verification.verification_id}`);
    expect(reply.headers.get("idempotent-replayed")).toBeNull();
    expect(verification).toMatchObject({
      status: "awaiting_upload",
      result: null,
      document_type: "YOK_STUDENT",
      process_type: "async",
      external_reference_id: "student-4711",
      original_filename: "ogrenci-belgesi.pdf",
      file_size_bytes: 183422,
      environment: "sandbox",
      checks: [],
      reasons: [],
      failure_code: null,
      sequence: 1,
      completed_at: null,
      metadata: {},
    });
    expect(verification.upload).toMatchObject({
      method: "PUT",
      headers: { "Content-Type": "application/pdf", "Content-Length": "183422" },
    });
    const signed = new URL(verification.upload?.url ?? "").searchParams.get("X-Amz-SignedHeaders");
    expect(signed?.split(";")).toEqual(expect.arrayContaining(["content-length", "content-type"]));
    const created = Date.parse(verification.created_at);
    expect(Date.parse(verification.upload_deadline) - created).toBe(24 * 3600 * 1000);
    expect(Date.parse(verification.upload?.expires_at ?? "") - created).toBe(15 * 60 * 1000);
  });

  it("takes process_type sync and an image file name, and external_reference_id is optional", async () => {
    const reply = await fx.customer.create(
      validBody({ process_type: "sync", original_filename: "scan.JPEG", external_reference_id: undefined }),
    );
    const verification = expectVerification(reply);
    expect(verification).toMatchObject({ process_type: "sync", external_reference_id: null });
    expect(verification.upload?.headers["Content-Type"]).toBe("image/jpeg");
  });

  it("echoes metadata on create and on every fetch, and keeps expected_subject without showing it", async () => {
    const metadata = { customer_id: "cus_8812", "plan.tier": "gold-2" };
    const expected_subject = { full_name: "Ayşe Yılmaz", birth_date: "2004-03-17" };
    const reply = await fx.customer.create(validBody({ metadata, expected_subject }));
    const created = expectVerification(reply);
    const fetched = await fx.customer.get(created.verification_id);

    expect(created.metadata).toEqual(metadata);
    expect(expectVerification(fetched).metadata).toEqual(metadata);
    for (const text of [reply.text, fetched.text]) {
      expect(text).not.toContain("expected_subject");
      expect(text).not.toContain("Yılmaz");
      expect(text).not.toContain("2004-03-17");
    }
    const stored = (await storedFor(fx.app.app_id)).find((item) => item.verification_id === created.verification_id);
    expect(stored).toMatchObject({ metadata, expected_subject });
  });

  describe("idempotency", () => {
    it("keys each record by a SHA-256 of the app and the key, and fingerprints the body the same way", async () => {
      const key = crypto.randomUUID();
      expect((await fx.customer.create(validBody(), key)).status).toBe(201);
      const records = await fx.api.scan(fx.api.tables.idempotency);
      expect(records.length).toBeGreaterThan(0);
      // Digests are base64: 32 bytes is SHA-256 (MD5 would be 16).
      const bytes = (digest: string) => Buffer.from(digest, "base64").length;
      for (const record of records) {
        expect(bytes(String(record.id).split("#").at(-1) ?? "")).toBe(32);
        if (record.validation !== undefined) expect(bytes(String(record.validation))).toBe(32);
      }
    });

    it("replays the first response for the same key and body", async () => {
      const key = crypto.randomUUID();
      const first = await fx.customer.create(validBody(), key);
      const again = await fx.customer.create(validBody(), key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.json).toEqual(first.json);
      expect(again.headers.get("location")).toBe(first.headers.get("location"));
      expect(again.headers.get("request-id")).not.toBe(first.headers.get("request-id"));
    });

    it("treats the same fields in another order, and a defaulted field sent explicitly, as the same body", async () => {
      const key = crypto.randomUUID();
      const first = await fx.customer.create(validBody(), key);
      const reordered = Object.fromEntries(Object.entries({ ...validBody(), process_type: "async" }).reverse());
      const again = await fx.customer.create(reordered, key);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.json).toEqual(first.json);
    });

    it("refuses the same key with another body (422 idempotency_key_reused) and stores nothing new", async () => {
      const key = crypto.randomUUID();
      await fx.customer.create(validBody(), key);
      const before = (await storedFor(fx.app.app_id)).length;
      const reply = await fx.customer.create(validBody({ file_size_bytes: 2048 }), key);
      expectProblem(reply, 422, "idempotency_key_reused");
      expect((await storedFor(fx.app.app_id)).length).toBe(before);
    });

    it("counts metadata and expected_subject as part of the body a retry must repeat", async () => {
      const key = crypto.randomUUID();
      await fx.customer.create(validBody({ metadata: { order: "1" } }), key);
      expectProblem(
        await fx.customer.create(validBody({ metadata: { order: "2" } }), key),
        422,
        "idempotency_key_reused",
      );
      const other = crypto.randomUUID();
      await fx.customer.create(validBody({ expected_subject: { birth_date: "2004-03-17" } }), other);
      expectProblem(
        await fx.customer.create(validBody({ expected_subject: { birth_date: "2004-03-18" } }), other),
        422,
        "idempotency_key_reused",
      );
    });

    it("makes exactly one verification from 20 concurrent creates with one key", async () => {
      const other = await fx.api.newApp();
      const racer = new Customer(fx.api.baseUrl, other.api_key);
      const key = crypto.randomUUID();
      const replies = await Promise.all(Array.from({ length: 20 }, () => racer.create(validBody(), key)));
      const ids = new Set<string>();
      for (const reply of replies) {
        if (reply.status === 409) {
          expectProblem(reply, 409, "idempotency_request_in_progress");
          expect(reply.headers.get("retry-after")).toBe("1");
        } else {
          ids.add(expectVerification(reply).verification_id);
          expect(reply.status).toBe(201);
        }
      }
      expect(ids.size).toBe(1);
      expect(await storedFor(other.app_id)).toHaveLength(1);
    });

    it("scopes keys to the app: two apps with the same key get two verifications", async () => {
      const other = await fx.api.newApp();
      const key = crypto.randomUUID();
      const mine = expectVerification(await fx.customer.create(validBody(), key));
      const theirs = expectVerification(await new Customer(fx.api.baseUrl, other.api_key).create(validBody(), key));
      expect(theirs.verification_id).not.toBe(mine.verification_id);
    });

    it("does not store a refused request: the fixed request succeeds with the same key", async () => {
      const key = crypto.randomUUID();
      expectProblem(await fx.customer.create(validBody({ file_size_bytes: 0 }), key), 422, "validation_failed");
      const fixed = await fx.customer.create(validBody(), key);
      expect(fixed.status).toBe(201);
      expect(fixed.headers.get("idempotent-replayed")).toBeNull();
    });
  });

  describe("refused requests answer problem+json and store nothing", () => {
    let other: NewApp;
    let refuser: Customer;
    beforeAll(async () => {
      other = await fx.api.newApp();
      refuser = new Customer(fx.api.baseUrl, other.api_key);
    });

    const cases: [string, () => Promise<Parameters<typeof expectProblem>[0]>, number, string][] = [
      ["no Idempotency-Key", () => refuser.create(validBody(), null), 400, "idempotency_key_missing"],
      [
        "an Idempotency-Key over 255 characters",
        () => refuser.create(validBody(), "k".repeat(256)),
        400,
        "idempotency_key_invalid",
      ],
      [
        "an Idempotency-Key with non-ASCII characters",
        () => refuser.create(validBody(), "clé"),
        400,
        "idempotency_key_invalid",
      ],
      ["a body that is not JSON", () => refuser.create("{not json"), 400, "malformed_json"],
      ["a JSON array", () => refuser.create("[1,2]"), 400, "malformed_json"],
      ["JSON null", () => refuser.create("null"), 400, "malformed_json"],
      [
        "no Content-Type",
        () => refuser.create(validBody(), crypto.randomUUID(), { "Content-Type": "" }),
        415,
        "unsupported_media_type",
      ],
      [
        "a text/plain body",
        () => refuser.create(validBody(), crypto.randomUUID(), { "Content-Type": "text/plain" }),
        415,
        "unsupported_media_type",
      ],
      [
        "a body over 16 KiB",
        () => refuser.create(validBody({ external_reference_id: "x".repeat(17_000) })),
        413,
        "payload_too_large",
      ],
      [
        "an unknown field",
        () => refuser.create(validBody({ callback_url: "https://example.com" })),
        422,
        "validation_failed",
      ],
      [
        "a missing required field",
        () => refuser.create(validBody({ document_type: undefined })),
        422,
        "validation_failed",
      ],
      [
        "an unknown document type",
        () => refuser.create(validBody({ document_type: "PASSPORT" })),
        422,
        "validation_failed",
      ],
      ["an unknown process type", () => refuser.create(validBody({ process_type: "batch" })), 422, "validation_failed"],
      [
        "a file over 10 MiB",
        () => refuser.create(validBody({ file_size_bytes: 10 * 1024 * 1024 + 1 })),
        422,
        "validation_failed",
      ],
      ["a fractional size", () => refuser.create(validBody({ file_size_bytes: 10.5 })), 422, "validation_failed"],
      [
        "a size sent as a string",
        () => refuser.create(validBody({ file_size_bytes: "1024" })),
        422,
        "validation_failed",
      ],
      [
        "an extension the type does not allow",
        () => refuser.create(validBody({ original_filename: "belge.docx" })),
        422,
        "validation_failed",
      ],
      [
        "a file name with a path",
        () => refuser.create(validBody({ original_filename: "../belge.pdf" })),
        422,
        "validation_failed",
      ],
      [
        "a reference with a control character",
        () => refuser.create(validBody({ external_reference_id: "a\u0007b" })),
        422,
        "validation_failed",
      ],
      ["an empty reference", () => refuser.create(validBody({ external_reference_id: "" })), 422, "validation_failed"],
      [
        "a reference over 128 characters",
        () => refuser.create(validBody({ external_reference_id: "r".repeat(129) })),
        422,
        "validation_failed",
      ],
    ];

    it.each(cases)("%s", async (_name, send, status, code) => {
      expectProblem(await send(), status, code);
    });

    it("names each invalid field with its own code", async () => {
      const reply = await refuser.create({ document_type: "PASSPORT", file_size_bytes: 0, extra: true });
      const problem = expectProblem(reply, 422, "validation_failed");
      expect(problem.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: "document_type", code: "invalid_value" }),
          expect.objectContaining({ field: "original_filename", code: "required" }),
          expect.objectContaining({ field: "file_size_bytes", code: "too_small" }),
          expect.objectContaining({ field: "extra", code: "unknown_field" }),
        ]),
      );
    });

    it("stored no verification and no idempotency record for any of them", async () => {
      expect(await storedFor(other.app_id)).toEqual([]);
      const records = await fx.api.scan(fx.api.tables.idempotency);
      expect(records.filter((record) => String(record.id).includes(other.app_id))).toEqual([]);
    });
  });
});

describe("authentication", () => {
  const post = (headers: Record<string, string>) =>
    call(fx.api.baseUrl, "POST", "/v1/verifications", {
      headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID(), ...headers },
      body: JSON.stringify(validBody()),
    });

  it("refuses a request without X-API-Key (401 invalid_api_key)", async () => {
    expectProblem(await post({}), 401, "invalid_api_key");
  });

  it("refuses an unknown key of the right form", async () => {
    expectProblem(await post({ "X-API-Key": `vk_sandbox_${"A".repeat(43)}` }), 401, "invalid_api_key");
  });

  it("refuses a key that is not a key at all", async () => {
    expectProblem(await post({ "X-API-Key": "hello" }), 401, "invalid_api_key");
  });

  it("refuses a production key in the sandbox, even one the table knows", async () => {
    const production = await fx.api.newApp("production");
    expectProblem(await post({ "X-API-Key": production.api_key }), 401, "invalid_api_key");
  });

  it("answers 403 app_disabled for a disabled fx.app, on every route", async () => {
    const disabled = await fx.api.newApp();
    await fx.api.apps.setStatus(disabled.app_id, "disabled", new Date().toISOString());
    const blocked = new Customer(fx.api.baseUrl, disabled.api_key);
    const id = "ver_01JD0000000000000000000000";
    expectProblem(await blocked.create(validBody()), 403, "app_disabled");
    expectProblem(await blocked.get(id), 403, "app_disabled");
    expectProblem(await blocked.confirm(id), 403, "app_disabled");
    expect(await storedFor(disabled.app_id)).toEqual([]);
  });

  it("answers 404 route_not_found for an unknown route, before authentication", async () => {
    expectProblem(await call(fx.api.baseUrl, "GET", "/v1/things"), 404, "route_not_found");
    expectProblem(await call(fx.api.baseUrl, "GET", "/v1/verifications/ver_x/document"), 404, "route_not_found");
    expectProblem(await call(fx.api.baseUrl, "GET", "/v2/verifications"), 404, "route_not_found");
  });
});
