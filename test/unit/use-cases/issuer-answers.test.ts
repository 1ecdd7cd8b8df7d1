/**
 * Asking the issuer through its queue, against fakes: a processor that may not ask (a sync
 * confirm) only sends the lookup; the queue's reader takes the attempt, asks once, records the
 * answer and decides, or retries an unavailable issuer with backoff until the window passes.
 */
import { describe, expect, it } from "vitest";
import { toResource, type VerificationItem } from "#shared/domain/verification";
import type { IssuerAnswer } from "#shared/ports/authority";
import { askIssuer } from "#shared/use-cases/issuer/ask-issuer";
import { processVerification } from "#shared/use-cases/processing/process-verification";
import {
  aVerification,
  CERTIFICATE_LINES,
  documentBytes,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  KeyedDigest,
  pageContent,
  RecordingIssuerQueue,
  RecordingLog,
  ScriptedAuthority,
  ScriptedReader,
  TaggingSealer,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const ID = verificationId(1);
const KEY = `documents/${ID}`;
const START = "2026-11-22T12:10:00Z";
const IDENTITY_NUMBER = "10000000146";
const UPLOAD = documentBytes("pdf", 1024);
const WINDOW = 900;

function setup(answer: IssuerAnswer = { kind: "found", document: UPLOAD }) {
  const verifications = new InMemoryVerificationStore().put(aVerification({ status: "processing", sequence: 2 }));
  const documents = new InMemoryDocumentStore();
  documents.upload(KEY, UPLOAD);
  const reader = new ScriptedReader();
  // The barcode only in the QR code, as e-Devlet's app reads it.
  reader.content = pageContent(
    CERTIFICATE_LINES.filter((line) => !line.startsWith("Barkod")),
    [`barkodlubelgedogrulama://barkod: YOK-7Q4M-2K9D;tckn:${IDENTITY_NUMBER}`],
  );
  const authority = new ScriptedAuthority(answer);
  const queue = new RecordingIssuerQueue();
  const log = new RecordingLog();
  const clock = new FixedClock(START);
  const deps = {
    verifications,
    documents,
    reader,
    issuer: queue,
    authority,
    sealer: new TaggingSealer(),
    subjects: new KeyedDigest(),
    clock,
    log,
    retryWindowSeconds: WINDOW,
    random: () => 0.5,
    stopwatch: () => 0,
  };
  /** The queue's reader, for the message of `attempt`. */
  const read = (attempt: number) => askIssuer(deps, { verification_id: ID, attempt });
  /** A sync confirm's own run of the checks. */
  const processed = () => processVerification(deps, ID);
  return { verifications, documents, authority, queue, log, clock, read, processed };
}

const message = (attempt: number, delaySeconds: number) => ({ verification_id: ID, attempt, delaySeconds });

describe("a processor that may not ask (a sync confirm)", () => {
  it("runs the checks, sends the lookup to the issuer queue and leaves the verification processing, asking nothing itself", async () => {
    const { queue, authority, processed } = setup();

    expect(await processed()).toMatchObject({ status: "processing", sequence: 2 });
    expect(queue.messages).toEqual([message(1, 0)]);
    expect(authority.asked).toEqual([]);
  });

  it("asks nothing more once a lookup is under way, and decides once its answer is recorded", async () => {
    const { queue, authority, processed, read } = setup({ kind: "not_found" });
    await processed();
    await read(1);
    // Run again: the answer is recorded, so it decides on it.
    expect(await processed()).toMatchObject({ status: "completed", result: "rejected" });
    expect(authority.asked).toHaveLength(1);
    expect(queue.messages).toEqual([message(1, 0)]);
  });
});

describe("the issuer queue's reader", () => {
  it("asks once, keeps the copy, records the answer and decides", async () => {
    const { verifications, documents, authority, log, read } = setup();

    const final = await read(1);

    expect(final).toMatchObject({ status: "completed", result: "verified", issuer_copy_key: `${KEY}.issuer-copy` });
    expect(verifications.stored(ID).issuer).toMatchObject({ answer: "found", attempts: 1, first_at: START });
    expect(documents.written).toEqual([{ key: `${KEY}.issuer-copy`, contentType: "application/pdf" }]);
    expect(authority.asked).toEqual([
      { documentType: "YOK_STUDENT", barcode: "YOK-7Q4M-2K9D", identityNumber: IDENTITY_NUMBER },
    ]);
    expect(log.lookups).toEqual([{ environment: "sandbox", outcome: "found", verificationId: ID }]);
  });

  it("asks nothing again for a message handed over twice, or for a later one, once the answer is recorded", async () => {
    const { authority, read } = setup({ kind: "not_found" });
    await read(1);
    await read(1);
    await read(2);
    expect(authority.asked).toHaveLength(1);
  });

  it("of two readers of the same attempt, only the one that took it asks", async () => {
    const { authority, read } = setup();
    const lookup = authority.lookup.bind(authority);
    let second: Promise<VerificationItem | undefined> | undefined;
    authority.lookup = async (request) => {
      // While this reader asks, the same message reaches another.
      second ??= read(1);
      return lookup(request);
    };
    await read(1);
    expect(await second).toMatchObject({ status: "processing" });
    expect(authority.asked).toHaveLength(1);
  });

  it("lets go of an attempt it failed half way, and sends its message again shortly: the retry asks", async () => {
    const { authority, queue, log, read } = setup();
    const lookup = authority.lookup.bind(authority);
    authority.lookup = async () => {
      throw new Error("the reader failed");
    };
    expect(await read(1)).toBeUndefined();
    authority.lookup = lookup;

    expect(queue.messages).toEqual([{ ...message(1, 2), failures: 1 }]);
    expect(log.lines.map((line) => line.message)).toEqual(["the checks failed; they run again shortly"]);
    // The message comes back: the attempt is free, so it asks at once.
    expect(await read(1)).toMatchObject({ status: "completed", result: "verified" });
    expect(authority.asked).toHaveLength(1);
  });

  it("when it cannot let go of the attempt either, sends its message again once its hold lapses, not before", async () => {
    const { verifications, authority, queue, clock, read } = setup();
    const recordIssuer = verifications.recordIssuer.bind(verifications);
    const lookup = authority.lookup.bind(authority);
    authority.lookup = async () => {
      // The table fails from here on: the hold cannot be let go of.
      verifications.recordIssuer = async () => {
        throw new Error("the table is unavailable");
      };
      throw new Error("the reader failed");
    };
    await read(1);
    expect(queue.messages).toEqual([{ ...message(1, 45), failures: 1 }]);

    verifications.recordIssuer = recordIssuer;
    authority.lookup = lookup;
    expect(await read(1)).toMatchObject({ status: "processing" });
    expect(authority.asked).toEqual([]);
    clock.advance(45);
    expect(await read(1)).toMatchObject({ status: "completed", result: "verified" });
    expect(authority.asked).toHaveLength(1);
  });

  it("leaves a message that failed every retry to the queue's redelivery and its failure queue", async () => {
    const { verifications, documents, authority, clock, log } = setup();
    documents.read = async () => {
      throw new Error("the bucket is unavailable");
    };
    const deps = {
      verifications,
      documents,
      reader: new ScriptedReader(),
      issuer: new RecordingIssuerQueue(),
      authority,
      sealer: new TaggingSealer(),
      subjects: new KeyedDigest(),
      clock,
      log,
    };
    await expect(
      askIssuer(
        { ...deps, retryWindowSeconds: WINDOW, random: () => 0.5, stopwatch: () => 0 },
        { verification_id: ID, attempt: 1, failures: 5 },
      ),
    ).rejects.toThrow("the bucket is unavailable");
    expect(deps.issuer.messages).toEqual([]);
  });
});

describe("an unavailable issuer", () => {
  it("stays processing, says it is asked again, and sends the retry with its backoff", async () => {
    const { verifications, queue, log, read } = setup({ kind: "unavailable", cause: "busy" });

    expect(await read(1)).toMatchObject({ status: "processing", sequence: 2 });

    expect(queue.messages).toEqual([message(2, 2)]);
    expect(verifications.stored(ID).issuer).toMatchObject({
      attempts: 1,
      last_cause: "busy",
      next_at: "2026-11-22T12:10:02Z",
      retry_until: "2026-11-22T12:25:00Z",
    });
    expect(toResource(verifications.stored(ID), START)).toMatchObject({
      status: "processing",
      reason_code: "processing",
      message:
        "The document is being checked; the issuer did not answer and is asked again until 2026-11-22T12:25:00Z, then a reviewer decides",
    });
    expect(log.lookups.map((lookup) => lookup.outcome)).toEqual(["unavailable_busy"]);
  });

  it("that recovers within the window: verified, one lookup per attempt", async () => {
    const { authority, clock, read } = setup({ kind: "unavailable", cause: "http_error" });
    await read(1);
    clock.advance(2);
    await read(2);
    authority.answer = { kind: "found", document: UPLOAD };
    clock.advance(4);
    expect(await read(3)).toMatchObject({ status: "completed", result: "verified" });
    expect(authority.asked).toHaveLength(3);
  });

  it("that never recovers: to review with issuer_unavailable once the window passed, never before", async () => {
    const { verifications, queue, clock, log, read } = setup({ kind: "unavailable", cause: "timeout" });
    let attempt = 1;
    let final = await read(attempt);
    while (final?.status === "processing") {
      const next = queue.messages.at(-1);
      if (!next || next.attempt !== attempt + 1) throw new Error("No retry was sent");
      expect(clock.now().getTime()).toBeLessThan(Date.parse(START) + WINDOW * 1000);
      clock.advance(next.delaySeconds);
      attempt = next.attempt;
      final = await read(attempt);
    }
    expect(clock.now().toISOString().replace(".000Z", "Z")).toBe("2026-11-22T12:25:00Z");
    expect(attempt).toBe(11);
    expect(final).toMatchObject({ status: "in_review", review_reason: "issuer_unavailable" });
    expect(final?.checks.find((check) => check.name === "authority_match")).toMatchObject({
      outcome: "skipped",
      detail: "No answer: the issuer did not answer in time, though asked again for the whole retry window",
    });
    expect(verifications.stored(ID).issuer).toMatchObject({ answer: "unavailable", attempts: 11 });
    expect(log.counts.map((count) => count.metric)).toEqual(["IssuerUnavailableReviews"]);
  });

  it("sends the retry again when the reader could not: its own message comes back and sends it", async () => {
    const { queue, read } = setup({ kind: "unavailable", cause: "busy" });
    queue.failNext = new Error("the queue refused");
    await read(1);
    expect(queue.messages).toEqual([{ ...message(1, 2), failures: 1 }]);

    await read(1);

    expect(queue.messages.at(-1)).toEqual(message(2, 2));
  });

  it("holds the identity number nowhere but in the lookup", async () => {
    const { verifications, queue, log, read } = setup({ kind: "unavailable", cause: "unrecognised" });
    await read(1);
    const kept = JSON.stringify([verifications.stored(ID), queue.messages, log.lines, log.lookups, log.counts]);
    expect(kept).not.toContain(IDENTITY_NUMBER);
  });
});

describe("with no issuer configured", () => {
  it("a message still in the queue sends the verification to review, asking nothing", async () => {
    const { verifications, documents, authority, clock, log } = setup();
    const reader = new ScriptedReader();
    // A PDF whose keys are only in its QR code.
    reader.content = pageContent(
      CERTIFICATE_LINES.filter((line) => !/^(Barkod|T\.C\.)/.test(line)),
      [`barkodlubelgedogrulama://barkod: YOK-7Q4M-2K9D;tckn:${IDENTITY_NUMBER}`],
    );
    const deps = {
      verifications,
      documents,
      reader,
      issuer: undefined,
      authority: undefined,
      sealer: new TaggingSealer(),
      subjects: new KeyedDigest(),
      clock,
      log,
    };

    const final = await askIssuer(
      { ...deps, retryWindowSeconds: WINDOW, random: () => 0.5, stopwatch: () => 0 },
      { verification_id: ID, attempt: 1 },
    );

    expect(final).toMatchObject({ status: "in_review", review_reason: "issuer_unavailable" });
    expect(final?.checks.find((check) => check.name === "authority_match")).toMatchObject({
      detail: "No issuer integration is configured",
    });
    expect(authority.asked).toEqual([]);
  });
});
