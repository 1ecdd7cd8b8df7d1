/**
 * Every document type of the registry through HTTP on the real runtime in production, asking
 * the e-Devlet simulator: besides the published set's rows (verified, and the rule failing, in
 * the decision-table tests), a certificate of each type the issuer does not hold, one whose
 * issue date was edited after the issuer's copy was made, one verified by its keys alone, and
 * its age on both sides of `max_document_age_days`.
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

/** Puts `spec`'s PDF where the simulator looks for `type`'s copies. */
async function hold(type: DocumentType, spec: CertificateSpec): Promise<void> {
  mkdirSync(path.join(held, type), { recursive: true });
  writeFileSync(path.join(held, type, `${spec.barcode}.pdf`), await certificatePdf(spec));
}

/** `days` before today in Türkiye, as a certificate prints a date. */
function printedDaysAgo(days: number): string {
  const date = new Date(Date.now() + 3 * 60 * 60 * 1000 - days * 24 * 60 * 60 * 1000).toISOString();
  return `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;
}

/** A verification by `spec`'s barcode and identity number alone, to its decision. */
async function verifyByKeys(
  type: DocumentType,
  spec: CertificateSpec,
  fields: Record<string, unknown> = {},
): Promise<VerificationResource> {
  const reply = await fx.customer.create({
    document_type: type,
    document_keys: { barcode: spec.barcode, identity_number: spec.identityNumber },
    ...fields,
  });
  expect(reply.status, reply.text).toBe(201);
  return fx.customer.decided(expectVerification(reply).verification_id);
}

async function verify(type: DocumentType, bytes: Uint8Array): Promise<VerificationResource> {
  const created = await fx.customer.created({
    document_type: type,
    original_filename: `${type.toLowerCase()}.pdf`,
    file_size_bytes: bytes.length,
  });
  expect((await upload(created, bytes)).status).toBe(200);
  expect((await fx.customer.confirm(created.verification_id)).status).toBe(200);
  return fx.customer.decided(created.verification_id);
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
    await hold(type, original);
    const edited = { ...original, issuedAt: "28.12.2026" } as CertificateSpec;

    const final = await verify(type, await certificatePdf(edited));

    expect(final).toMatchObject({ status: "completed", result: "rejected", reason_code: "document_altered" });
    expect(final.fraud_signals).toEqual(["document_altered"]);
    expect(final.extracted).toBeNull();
  });

  it("by its barcode and identity number alone: decided on the issuer's copy, nothing uploaded", async () => {
    const spec = { ...verifiedSpec(type), barcode: `KEYS-${type.replaceAll("_", "-")}` } as CertificateSpec;
    await hold(type, spec);

    const final = await verifyByKeys(type, spec);

    expect(final).toMatchObject({
      status: "completed",
      result: "verified",
      original_filename: null,
      file_size_bytes: null,
      fraud_signals: [],
    });
    expect(final.extracted?.fields).toMatchObject({ barcode: spec.barcode });
    expect(final.checks.slice(0, 2)).toMatchObject([
      { name: "barcode_found", outcome: "passed" },
      { name: "authority_match", outcome: "passed" },
    ]);
    expect(JSON.stringify(final)).not.toContain(spec.identityNumber);
  });

  it.each([
    [30, "verified", "passed"],
    [29, "rejected", "failed"],
  ] as const)("issued 30 days ago, with max_document_age_days %i: %s", async (days, result, outcome) => {
    const spec = {
      ...verifiedSpec(type),
      barcode: `AGE-${days}-${type.replaceAll("_", "-")}`,
      issuedAt: printedDaysAgo(30),
    } as CertificateSpec;
    await hold(type, spec);

    const final = await verifyByKeys(type, spec, { max_document_age_days: days });

    expect(final).toMatchObject({ status: "completed", result, max_document_age_days: days });
    if (result === "rejected") expect(final.reason_code).toBe("document_too_old");
    expect(final.checks.find((check) => check.name === "document_fresh")).toMatchObject({ outcome });
  });
});
