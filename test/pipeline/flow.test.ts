/**
 * After upload-complete a verification reaches its terminal state through the change stream,
 * and the customer hears of each change by a signed webhook.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { type WebhookEvent, webhookEventSchema } from "#shared/domain/responses/events";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { expectVerification, upload } from "../support/client.ts";
import { brokenPdf, encryptedPdf, jpegImage, pdfDocument, pngBomb, pngImage } from "../support/documents.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true, receiver: true });
const DOCUMENTS = path.resolve(__dirname, "../../docs/test-documents");

async function submitted(document: Uint8Array, fields: Record<string, unknown>): Promise<VerificationResource> {
  const verification = await fx.customer.created({ file_size_bytes: document.length, ...fields });
  expect((await upload(verification, document)).status).toBe(200);
  const confirmed = await fx.customer.confirm(verification.verification_id);
  expect(confirmed.status).toBe(200);
  return expectVerification(confirmed);
}

async function settled(id: string, stops: string[] = []): Promise<VerificationResource> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const verification = expectVerification(await fx.customer.get(id));
    if (["completed", "failed", "expired", ...stops].includes(verification.status)) return verification;
    if (Date.now() > deadline) throw new Error(`${id} is still ${verification.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The verified events about one verification, in arrival order. */
async function eventsAbout(id: string, count: number): Promise<WebhookEvent[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const about = fx.receiver.deliveries.filter((d) => d.body.includes(id));
    if (about.length >= count) {
      return about.map((delivery) => {
        const verified = new Webhook(fx.app.webhook_secret).verify(delivery.body, delivery.headers);
        return webhookEventSchema.parse(verified);
      });
    }
    if (Date.now() > deadline) throw new Error(`${about.length} of ${count} events about ${id} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const PASSED_BASICS = ["upload_present", "size_matches", "file_type_allowed", "document_readable"].map((name) => ({
  name,
  outcome: "passed",
}));

const PIPELINE = ["barcode_found", "authority_match", "fields_extracted", "student_active"];

describe("the asynchronous flow in the sandbox", () => {
  it.each([
    ["test_verified_1", "completed", "verified", "verified"],
    ["test_rejected_1", "completed", "rejected", "document_not_found_at_issuer"],
    ["test_inconclusive_1", "completed", "inconclusive", "review_timeout"],
  ])("any readable PDF with reference %s ends %s / %s", async (reference, status, result, reason) => {
    const confirmed = await submitted(await pdfDocument(), { external_reference_id: reference });
    expect(confirmed.status).toBe("processing");
    const final = await settled(confirmed.verification_id);
    expect(final).toMatchObject({ status, result, sequence: 3, failure_code: null, reason_code: reason });
    expect(final.completed_at).not.toBeNull();
    expect(final.checks).toEqual([
      ...PASSED_BASICS.map((check) => expect.objectContaining(check)),
      ...PIPELINE.map((name) => expect.objectContaining({ name, outcome: "skipped" })),
    ]);
    expect(final.reasons.map((r) => r.code)).toEqual(result === "verified" ? [] : [reason]);
    // The prefix chose the outcome, and the message says so rather than what a check would have found.
    expect(final.message).toBe(
      `The sandbox reference prefix ${reference.slice(0, -1)} forced this outcome: no check ran and nobody reviewed the document`,
    );

    const events = await eventsAbout(confirmed.verification_id, 2);
    expect(events.map((e) => [e.type, e.data.verification.sequence])).toEqual([
      ["verification.processing", 2],
      ["verification.completed", 3],
    ]);
    expect(events[1]?.data.verification).toEqual(final);
    expect(events.every((e) => e.environment === "sandbox" && e.api_version === "v1")).toBe(true);
  });

  it("a PDF with no barcode and no reference prefix is rejected barcode_missing: no outcome is invented", async () => {
    const confirmed = await submitted(await pdfDocument(), { external_reference_id: "student-4711" });
    const final = await settled(confirmed.verification_id);
    expect(final).toMatchObject({ status: "completed", result: "rejected", reason_code: "barcode_missing" });
  });

  it.each([
    ["test_review_verified_1", "verified", "verified"],
    ["test_review_rejected_1", "rejected", "not_genuine"],
  ])(
    "%s waits in review, then is decided %s a few seconds later, with an event at each step",
    async (reference, result, reason) => {
      const confirmed = await submitted(await pdfDocument(), { external_reference_id: reference });
      const inReview = await settled(confirmed.verification_id, ["in_review"]);
      expect(inReview).toMatchObject({ status: "in_review", result: null, reason_code: "review_requested" });
      expect(inReview.review).toEqual({ required_at: expect.any(String), decided_at: null });

      const events = await eventsAbout(confirmed.verification_id, 3);
      expect(events.map((e) => [e.type, e.data.verification.sequence])).toEqual([
        ["verification.processing", 2],
        ["verification.in_review", 3],
        ["verification.completed", 4],
      ]);
      const final = expectVerification(await fx.customer.get(confirmed.verification_id));
      expect(final).toMatchObject({ status: "completed", result, reason_code: reason, sequence: 4 });
      expect(final.message).toContain(`The sandbox reference prefix ${reference.slice(0, -1)} forced this outcome`);
      expect(final.review?.decided_at).toEqual(final.completed_at);
    },
  );

  it("echoes the metadata sent on create in every webhook", async () => {
    const metadata = { customer_id: "cus_8812" };
    const confirmed = await submitted(await pdfDocument(), { metadata });
    const events = await eventsAbout(confirmed.verification_id, 2);
    expect(events.map((e) => e.data.verification.metadata)).toEqual([metadata, metadata]);
  });

  it("a reference with test_failed_ ends failed with document_unreadable", async () => {
    const confirmed = await submitted(await pdfDocument(), { external_reference_id: "test_failed_1" });
    const final = await settled(confirmed.verification_id);
    expect(final).toMatchObject({ status: "failed", result: null, failure_code: "document_unreadable" });
    const events = await eventsAbout(confirmed.verification_id, 2);
    expect(events.map((e) => e.type)).toEqual(["verification.processing", "verification.failed"]);
  });

  it.each([
    ["an encrypted PDF", encryptedPdf, "belge.pdf", "The PDF is encrypted", "pdf_encrypted", {}],
    [
      "a PDF that does not parse",
      async () => brokenPdf(),
      "belge.pdf",
      "The PDF could not be read",
      "pdf_unreadable",
      {},
    ],
    [
      "a PNG decompression bomb",
      () => pngBomb(),
      "scan.png",
      "The image (7000 x 7000) needs more than 160 MiB to decode",
      "image_too_large",
      { width: 7000, height: 7000, mib: 160 },
    ],
  ])("%s fails with document_unreadable", async (_name, make, filename, detail, detail_code, detail_params) => {
    const confirmed = await submitted(await make(), { original_filename: filename });
    const final = await settled(confirmed.verification_id);
    expect(final).toMatchObject({ status: "failed", failure_code: "document_unreadable", result: null });
    expect(final.checks.find((c) => c.name === "document_readable")).toEqual({
      name: "document_readable",
      outcome: "failed",
      detail,
      detail_code,
      detail_params,
    });
  });

  it.each([
    ["PNG", pngImage, "scan.png"],
    ["JPEG", jpegImage, "scan.jpg"],
  ])("a %s photo that decodes goes to review: only the original PDF can be matched", async (_name, make, filename) => {
    const confirmed = await submitted(make(), { original_filename: filename });
    expect(await settled(confirmed.verification_id, ["in_review"])).toMatchObject({
      status: "in_review",
      reason_code: "original_pdf_not_provided",
    });
  });
});

describe("the evidence", () => {
  it("is pinned at confirm: a second PUT with the still-valid URL changes nothing that was checked", async () => {
    const certificate = new Uint8Array(readFileSync(path.join(DOCUMENTS, "yok-active.pdf")));
    const created = await fx.customer.created({
      file_size_bytes: certificate.length,
      original_filename: "yok-active.pdf",
      process_type: "sync",
    });
    expect((await upload(created, certificate)).status).toBe(200);
    const confirmed = expectVerification(await fx.customer.confirm(created.verification_id));
    expect(confirmed).toMatchObject({ status: "completed", result: "verified" });

    // The same URL, still valid, with a document of the same size that says something else.
    const tampered = Uint8Array.from(certificate);
    tampered[tampered.length - 20] = 0x20;
    expect((await upload(created, tampered)).status).toBe(200);

    expect(expectVerification(await fx.customer.get(created.verification_id))).toEqual(confirmed);
    const pinned = await fx.api.s3.send(
      new GetObjectCommand({ Bucket: fx.api.bucket, Key: `documents/${created.verification_id}.evidence` }),
    );
    expect(Buffer.from(await (pinned.Body?.transformToByteArray() ?? Promise.resolve(new Uint8Array())))).toEqual(
      Buffer.from(certificate),
    );
  });
});

describe("process_type sync", () => {
  it("answers upload-complete with the terminal state", async () => {
    const confirmed = await submitted(await pdfDocument(), {
      process_type: "sync",
      external_reference_id: "test_rejected_2",
    });
    expect(confirmed).toMatchObject({ status: "completed", result: "rejected", sequence: 3 });
    const events = await eventsAbout(confirmed.verification_id, 2);
    expect(events.map((e) => e.data.verification.sequence)).toEqual([2, 3]);
  });
});

describe("the change stream consumer", () => {
  it("does nothing twice when it sees a record twice", async () => {
    const confirmed = await submitted(await pdfDocument(), {});
    const final = await settled(confirmed.verification_id);
    await eventsAbout(confirmed.verification_id, 2);
    await fx.api.pipeline?.drain();
    const eventsOfIt = async () =>
      (await fx.api.scan(fx.api.tables.events)).filter((item) => item.verification_id === final.verification_id);
    const deliveriesOfIt = () => fx.receiver.deliveries.filter((d) => d.body.includes(final.verification_id));
    const before = await eventsOfIt();
    const deliveries = deliveriesOfIt().length;
    const { marshall } = await import("@aws-sdk/util-dynamodb");
    const stored = (await fx.api.scan(fx.api.tables.verifications)).find(
      (i) => i.verification_id === final.verification_id,
    );
    // The processing change as the stream carried it: its own updated_at, which names its event.
    const processingAt = before.find((event) => event.sequence === 2)?.created_at;
    expect(processingAt).toEqual(expect.any(String));
    const processing = { ...stored, status: "processing", sequence: 2, result: undefined, updated_at: processingAt };
    const records = [
      { before: { ...processing, status: "awaiting_upload", sequence: 1 }, after: processing },
      { before: processing, after: stored },
    ].map(({ before, after }, i) => ({
      eventID: `replayed-${i}`,
      eventName: "MODIFY" as const,
      dynamodb: {
        SequenceNumber: `9${i}`,
        OldImage: marshall(before, { removeUndefinedValues: true }),
        NewImage: marshall(after, { removeUndefinedValues: true }),
      },
    }));
    for (let round = 0; round < 2; round += 1) {
      // biome-ignore lint/suspicious/noExplicitAny: the stream image types differ only nominally
      expect(await fx.api.handlers["on-verification-change"]({ Records: records as any })).toEqual({
        batchItemFailures: [],
      });
    }
    expect(await eventsOfIt()).toEqual(before);
    expect(deliveriesOfIt()).toHaveLength(deliveries);
    expect(expectVerification(await fx.customer.get(final.verification_id))).toEqual(final);
  });
});
