/**
 * Every document type of the registry through HTTP on the real runtime in production, asking
 * the e-Devlet simulator: besides the published set's rows (verified, and the rule failing, in
 * the decision-table tests), a certificate of each type the issuer does not hold, and one whose
 * issue date was edited after the issuer's copy was made.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DOCUMENT_TYPE_CODES, type DocumentType } from "#shared/domain/document-types";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";
import { type CertificateSpec, certificatePdf } from "../../scripts/test-documents/certificate.ts";
import { expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";
import { until } from "../support/until.ts";

/** The published certificate of `type` that every step verifies. */
function verifiedSpec(type: DocumentType): CertificateSpec {
  const entry = CATALOGUE.find(
    (candidate) =>
      candidate.documentType === type &&
      candidate.upload.kind === "pdf" &&
      candidate.expected.reason_code === "verified" &&
      candidate.upload.spec.issuedAt !== null &&
      !candidate.create.expected_subject,
  );
  if (!entry) throw new Error(`The catalogue has no verified, dated ${type} certificate`);
  return entry.upload.spec;
}

const held = mkdtempSync(path.join(os.tmpdir(), "edevlet-types-"));
afterAll(() => rmSync(held, { recursive: true, force: true }));

const fx = useApiFixture({
  environment: "production",
  pipeline: true,
  issuer: { documents: [held], settings: { EDEVLET_PROTOCOL: "form" } },
});

async function verify(type: DocumentType, bytes: Uint8Array): Promise<VerificationResource> {
  const created = await fx.customer.created({
    document_type: type,
    original_filename: `${type.toLowerCase()}.pdf`,
    file_size_bytes: bytes.length,
  });
  expect((await upload(created, bytes)).status).toBe(200);
  expect((await fx.customer.confirm(created.verification_id)).status).toBe(200);
  return until(
    async () => expectVerification(await fx.customer.get(created.verification_id)),
    (verification) => !["awaiting_upload", "processing"].includes(verification.status),
    25_000,
  );
}

describe.each(DOCUMENT_TYPE_CODES)("a %s certificate through HTTP in production", (type) => {
  it("that the issuer does not hold: completed rejected document_not_found_at_issuer, no fields", async () => {
    const spec = { ...verifiedSpec(type), barcode: `UNHELD-${type.replaceAll("_", "-")}` } as CertificateSpec;

    const final = await verify(type, await certificatePdf(spec));

    expect(final).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: "document_not_found_at_issuer",
    });
    expect(final.extracted).toBeNull();
  });

  it("whose issue date was edited after issue: completed rejected document_altered, no fields", async () => {
    const original = { ...verifiedSpec(type), barcode: `EDITED-${type.replaceAll("_", "-")}` } as CertificateSpec;
    mkdirSync(path.join(held, type), { recursive: true });
    writeFileSync(path.join(held, type, `${original.barcode}.pdf`), await certificatePdf(original));
    const edited = { ...original, issuedAt: "28.12.2026" } as CertificateSpec;

    const final = await verify(type, await certificatePdf(edited));

    expect(final).toMatchObject({ status: "completed", result: "rejected", reason_code: "document_altered" });
    expect(final.fraud_signals).toEqual(["document_altered"]);
    expect(final.extracted).toBeNull();
  });
});
