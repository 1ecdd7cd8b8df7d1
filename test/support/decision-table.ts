/**
 * Every row of the decision table through the real runtime, asking the e-Devlet simulator by one
 * way in: each published test document (docs/test-documents/) uploaded, read by the real reader,
 * looked up over HTTP by the same adapter production uses, and decided as the catalogue says;
 * then what the published set cannot show: a certificate whose keys are only in its QR code (as
 * a PDF and as a photo), and another person's number. A test file calls it once: the way in is
 * read by the functions at their cold start.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Environment } from "#shared/domain/environments";
import type { EdevletProtocol } from "#shared/domain/issuer";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { PUBLISHED_CERTIFICATES } from "../../local/resources.ts";
import { CATALOGUE, uploadBarcode } from "../../scripts/test-documents/catalogue.ts";
import {
  type CertificateSpec,
  certificatePdf,
  certificatePhoto,
  syntheticIdentityNumber,
} from "../../scripts/test-documents/certificate.ts";
import { upload } from "./client.ts";
import { useApiFixture } from "./fixture.ts";

const DOCUMENTS = path.resolve(__dirname, "../../docs/test-documents");
/** Short, so the busy row ends in review within the test; the retries themselves are tested elsewhere. */
const RETRY_WINDOW_SECONDS = 3;

/** The published active student, under another barcode, printing its keys where `spec` says. */
function activeStudent(fields: Partial<CertificateSpec>): CertificateSpec {
  const entry = CATALOGUE.find((candidate) => candidate.file === "yok-active.pdf");
  if (entry?.upload.kind !== "pdf") throw new Error("The catalogue has no yok-active.pdf");
  return { ...entry.upload.spec, ...fields } as CertificateSpec;
}

/**
 * What a row decides asking by `protocol`: the mobile endpoint documents no answer that means not
 * found (edevlet.md section 2), so what the form rejects as not found there goes to review.
 */
function expectedBy<Expected extends { reason_code: string }>(
  protocol: EdevletProtocol,
  expected: Expected,
): Expected | { status: "in_review"; result: null; reason_code: "issuer_unavailable" } {
  return protocol === "mobile" && expected.reason_code === "document_not_found_at_issuer"
    ? { status: "in_review", result: null, reason_code: "issuer_unavailable" }
    : expected;
}

/** What every case of the table uses: the runtime, a verification taken to its decision, and a certificate the simulator holds. */
interface DecisionTable {
  options: { environment: Environment; protocol: EdevletProtocol };
  fx: ReturnType<typeof useApiFixture>;
  verify(
    bytes: Uint8Array,
    fields: { document_type: string; original_filename: string } & Record<string, unknown>,
  ): Promise<VerificationResource>;
  hold(barcode: string, bytes: Uint8Array): void;
}

function decisionTable(options: DecisionTable["options"]): DecisionTable {
  // Certificates the simulator holds besides the published set, added as a test needs them.
  const held = mkdtempSync(path.join(os.tmpdir(), "edevlet-held-"));
  afterAll(() => rmSync(held, { recursive: true, force: true }));
  const fx = useApiFixture({
    environment: options.environment,
    pipeline: true,
    issuer: {
      documents: [PUBLISHED_CERTIFICATES, held],
      settings: { EDEVLET_PROTOCOL: options.protocol, ISSUER_RETRY_WINDOW_S: String(RETRY_WINDOW_SECONDS) },
    },
  });

  /** Creates, uploads and confirms `bytes` as `file`; the decision. */
  async function verify(
    bytes: Uint8Array,
    fields: { document_type: string; original_filename: string } & Record<string, unknown>,
  ): Promise<VerificationResource> {
    const created = await fx.customer.created({ ...fields, file_size_bytes: bytes.length });
    expect((await upload(created, bytes)).status).toBe(200);
    expect((await fx.customer.confirm(created.verification_id)).status).toBe(200);
    return fx.customer.decided(created.verification_id);
  }

  const hold = (barcode: string, bytes: Uint8Array) => {
    mkdirSync(path.join(held, "added"), { recursive: true });
    writeFileSync(path.join(held, "added", `${barcode}.pdf`), bytes);
  };

  return { options, fx, verify, hold };
}

/** Every published certificate's row. */
function catalogueCases({ options, verify }: DecisionTable): void {
  it.each(CATALOGUE.map((entry) => [entry.exercises, entry] as const))("%s", async (_row, entry) => {
    const bytes = new Uint8Array(readFileSync(path.join(DOCUMENTS, entry.file)));
    const final = await verify(bytes, {
      document_type: entry.documentType,
      original_filename: entry.file,
      ...entry.create,
    });

    expect({ status: final.status, result: final.result, reason_code: final.reason_code }).toEqual(
      expectedBy(options.protocol, entry.expected),
    );
    // Fields only from an issuer's copy that holds what was sent.
    const authentic = final.checks.some((check) => check.name === "authority_match" && check.outcome === "passed");
    expect(final.extracted !== null).toBe(authentic);
    if (final.extracted) expect(final.extracted.fields.barcode).toBe(uploadBarcode(entry));
    expect(final.fraud_signals).toEqual(entry.fraudSignals ?? []);
    // The identity number is never shown back.
    expect(JSON.stringify(final)).not.toMatch(/\b[1-9]\d{10}\b/);
  });
}

/** The barcode and number read from a QR code alone: in a PDF, and in a photo decided from the issuer's copy. */
function qrCases({ options, verify, hold }: DecisionTable): void {
  it("verifies a PDF whose barcode and identity number are printed only in its QR code", async () => {
    const spec = activeStudent({ barcode: `QRONLY-${options.protocol.toUpperCase()}-01`, qrOnly: true });
    const pdf = await certificatePdf(spec);
    hold(spec.barcode as string, pdf);

    const final = await verify(pdf, { document_type: "YOK_STUDENT", original_filename: "qr-only.pdf" });

    expect(final).toMatchObject({ status: "completed", result: "verified", reason_code: "verified" });
    expect(final.extracted?.fields).toMatchObject({ barcode: spec.barcode, full_name: "AYŞE DENEME" });
  });

  it("reads the QR payload of a photo of that certificate and keeps the issuer's copy for review", async () => {
    const spec = activeStudent({ barcode: `QRONLY-${options.protocol.toUpperCase()}-02`, qrOnly: true });
    hold(spec.barcode as string, await certificatePdf(spec));
    const photo = await certificatePhoto(spec, "jpeg");

    const final = await verify(photo, { document_type: "YOK_STUDENT", original_filename: "photo.jpg" });

    expect(final).toMatchObject({ status: "in_review", reason_code: "original_pdf_not_provided" });
    expect(final.checks.find((check) => check.name === "barcode_found")).toMatchObject({ outcome: "passed" });
    expect(final.checks.find((check) => check.name === "authority_match")).toMatchObject({
      outcome: "passed",
      detail: "The issuer holds the document for these keys; a photo or scan cannot be compared with it",
    });
    expect(final.fraud_signals).toEqual(["upload_not_compared"]);
  });

  it.each([
    ["matches the issuer's copy: verified", { full_name: "ayşe deneme", birth_date: "2004-03-14" }, "verified"],
    ["is someone else: rejected subject_mismatch", { full_name: "ZEYNEP BAŞKA" }, "subject_mismatch"],
  ] as const)("decides a photo from the issuer's copy when the expected subject %s", async (_what, subject, code) => {
    const barcode = `PHOTO-${options.protocol.toUpperCase()}-${code.toUpperCase().replaceAll("_", "-")}`;
    const spec = activeStudent({ barcode, qrOnly: true });
    hold(barcode, await certificatePdf(spec));

    const final = await verify(await certificatePhoto(spec, "png"), {
      document_type: "YOK_STUDENT",
      original_filename: "photo.png",
      expected_subject: subject,
    });

    expect(final).toMatchObject({
      status: "completed",
      result: code === "verified" ? "verified" : "rejected",
      reason_code: code,
      fraud_signals: ["upload_not_compared"],
    });
    expect(final.extracted?.fields).toMatchObject({ barcode, full_name: "AYŞE DENEME" });
  });
}

/** A certificate printed beside another person's number. */
function forgeryCase({ options, verify, hold }: DecisionTable): void {
  it("rejects a certificate sent with another person's number on the form (e-Devlet finds no record for it); reviews it on the mobile endpoint", async () => {
    const barcode = `OTHERPERSON-${options.protocol.toUpperCase()}`;
    hold(barcode, await certificatePdf(activeStudent({ barcode })));
    // The same barcode printed beside someone else's number: a forgery e-Devlet refuses at its consent step.
    const forged = await certificatePdf(activeStudent({ barcode, identityNumber: syntheticIdentityNumber(90) }));

    const final = await verify(forged, { document_type: "YOK_STUDENT", original_filename: "forged.pdf" });

    expect(final).toMatchObject(
      expectedBy(options.protocol, {
        status: "completed",
        result: "rejected",
        reason_code: "document_not_found_at_issuer",
      }),
    );
    expect(final.extracted).toBeNull();
  });
}

/** Once every row ran: no identity number kept in any verification or event. */
function identityNumbersCase({ fx }: DecisionTable): void {
  it("leaves no identity number in any stored verification or event, after every row ran", async () => {
    const identityNumbers = [...new Set(CATALOGUE.map((entry) => entry.upload.spec.identityNumber))];
    expect(identityNumbers.length).toBeGreaterThan(5);
    const stored = JSON.stringify([
      ...(await fx.api.scan(fx.api.tables.verifications)),
      ...(await fx.api.scan(fx.api.tables.events)),
    ]);
    expect(stored).toContain("TESTYOK-0001-AKTIF");
    for (const number of [...identityNumbers, syntheticIdentityNumber(90)]) expect(stored).not.toContain(number);
  });
}

export function describeDecisionTable(options: DecisionTable["options"]): void {
  const table = decisionTable(options);
  describe(`the decision table in ${options.environment}, asking the e-Devlet simulator by its ${options.protocol}`, () => {
    catalogueCases(table);
    qrCases(table);
    forgeryCase(table);
    identityNumbersCase(table);
  });
}
