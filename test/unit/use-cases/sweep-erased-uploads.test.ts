import { describe, expect, it } from "vitest";
import { documentKey, type VerificationItem } from "#shared/domain/verification";
import { eraseVerification } from "#shared/use-cases/public/erase-verification";
import { sweepErasedUploads } from "#shared/use-cases/tick/sweep-erased-uploads";
import {
  aVerification,
  documentBytes,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  RecordingLog,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

function setup(...items: VerificationItem[]) {
  const verifications = new InMemoryVerificationStore().put(...items);
  const documents = new InMemoryDocumentStore();
  const log = new RecordingLog();
  const clock = new FixedClock(T0);
  return { verifications, documents, log, clock, deps: { verifications, documents, log, clock } };
}

/** A verification awaiting its upload, created at T0 - 1 h with a deadline a day later. */
const awaiting = (n: number) =>
  aVerification({
    verification_id: verificationId(n),
    external_reference_id: `applicant-${n}`,
    created_at: "2026-11-22T11:00:00Z",
    upload_deadline: "2026-11-23T11:00:00Z",
  });

describe("sweepErasedUploads", () => {
  it("removes a document put through the old upload URL after the erasure, and counts it without naming the person", async () => {
    const { verifications, documents, log, clock, deps } = setup(awaiting(1));
    await eraseVerification(deps, { appId: awaiting(1).app_id, verificationId: verificationId(1) });
    // The URL signed at creation is still valid: the document comes back.
    clock.advance(10 * 60);
    documents.upload(documentKey(verificationId(1)), documentBytes("pdf", 1024));
    clock.advance(30);

    expect(await sweepErasedUploads(deps)).toBe(1);

    expect(documents.objects.has(documentKey(verificationId(1)))).toBe(false);
    expect(log.counts).toEqual([
      {
        metric: "UploadsAfterErasure",
        environment: "sandbox",
        message: expect.any(String),
        attributes: { verification_id: verificationId(1) },
      },
    ]);
    expect(JSON.stringify(log.counts)).not.toContain("applicant-1");
    expect(verifications.stored(verificationId(1)).redacted_at).toBe(T0);
    // Nothing is left to remove, and nothing is counted twice.
    clock.advance(60);
    expect(await sweepErasedUploads(deps)).toBe(0);
    expect(log.counts).toHaveLength(1);
  });

  it("still removes a document put at the last second of the URL's life, one tick later", async () => {
    const { documents, clock, deps } = setup(awaiting(1));
    await eraseVerification(deps, { appId: awaiting(1).app_id, verificationId: verificationId(1) });
    clock.advance(15 * 60);
    documents.upload(documentKey(verificationId(1)), documentBytes("pdf", 1024));
    clock.advance(60);

    expect(await sweepErasedUploads(deps)).toBe(1);
    expect(documents.objects.size).toBe(0);
  });

  it("leaves verifications not erased alone, and counts nothing when no document came back", async () => {
    const { documents, log, deps } = setup(
      awaiting(1),
      aVerification({ verification_id: verificationId(2), redacted_at: "2026-11-22T11:58:00Z", status: "completed" }),
    );
    documents.upload(documentKey(verificationId(1)), documentBytes("pdf", 1024));

    expect(await sweepErasedUploads(deps)).toBe(0);

    expect(documents.objects.has(documentKey(verificationId(1)))).toBe(true);
    expect(documents.deleted).toEqual([]);
    expect(log.counts).toEqual([]);
  });

  it("looks no further back than an upload URL signed before the erasure can live, and a margin", async () => {
    const { documents, deps } = setup(
      // Erased 19 minutes ago: every URL it had lapsed 4 minutes ago, and earlier ticks looked after it.
      aVerification({ verification_id: verificationId(1), redacted_at: "2026-11-22T11:41:00Z", status: "expired" }),
      // Erased a day after its upload deadline: no URL of it was valid at the erasure.
      aVerification({
        verification_id: verificationId(2),
        redacted_at: "2026-11-22T11:59:00Z",
        upload_deadline: "2026-11-21T11:00:00Z",
        status: "expired",
      }),
    );
    documents.upload(documentKey(verificationId(1)), documentBytes("pdf", 1024));
    documents.upload(documentKey(verificationId(2)), documentBytes("pdf", 1024));

    expect(await sweepErasedUploads(deps)).toBe(0);
    expect(documents.deleted).toEqual([]);
  });
});
