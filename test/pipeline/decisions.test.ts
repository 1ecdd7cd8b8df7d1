/**
 * Every row of the decision table through the real runtime: each published test document
 * (docs/test-documents/) uploaded to the sandbox, read by the real reader, looked up at the
 * project's own authority service over HTTP, and decided as the catalogue says.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { VerificationResource } from "#shared/domain/verification";
import { CATALOGUE, uploadBarcode } from "../../scripts/test-documents/catalogue.ts";
import { expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const DOCUMENTS = path.resolve(__dirname, "../../docs/test-documents");
const fx = useApiFixture({ pipeline: true });

async function decided(id: string): Promise<VerificationResource> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const verification = expectVerification(await fx.customer.get(id));
    if (!["awaiting_upload", "processing"].includes(verification.status)) return verification;
    if (Date.now() > deadline) throw new Error(`${id} is still ${verification.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the published test documents, in the sandbox", () => {
  it.each(CATALOGUE.map((entry) => [entry.exercises, entry] as const))("%s", async (_row, entry) => {
    const bytes = new Uint8Array(readFileSync(path.join(DOCUMENTS, entry.file)));
    const created = await fx.customer.created({
      document_type: entry.documentType,
      original_filename: entry.file,
      file_size_bytes: bytes.length,
      ...entry.create,
    });
    expect((await upload(created, bytes)).status).toBe(200);
    expect((await fx.customer.confirm(created.verification_id)).status).toBe(200);

    const final = await decided(created.verification_id);

    expect({ status: final.status, result: final.result, reason_code: final.reason_code }).toEqual(entry.expected);
    // Fields only from an issuer's copy that matched the upload byte for byte.
    const authentic = final.checks.some((check) => check.name === "authority_match" && check.outcome === "passed");
    expect(final.extracted !== null).toBe(authentic);
    if (final.extracted) expect(final.extracted.fields.barcode).toBe(uploadBarcode(entry));
    expect(final.fraud_signals).toEqual(entry.expected.reason_code === "document_altered" ? ["document_altered"] : []);
    // The identity number is never shown back.
    expect(JSON.stringify(final)).not.toMatch(/\b[1-9]\d{10}\b/);
  });

  it("leaves no identity number in any stored verification or event, after every row ran", async () => {
    const identityNumbers = [...new Set(CATALOGUE.map((entry) => entry.upload.spec.identityNumber))];
    expect(identityNumbers.length).toBeGreaterThan(5);
    const stored = JSON.stringify([
      ...(await fx.api.scan(fx.api.tables.verifications)),
      ...(await fx.api.scan(fx.api.tables.events)),
    ]);
    expect(stored).toContain("TESTYOK-0001-AKTIF");
    for (const number of identityNumbers) expect(stored).not.toContain(number);
  });
});
