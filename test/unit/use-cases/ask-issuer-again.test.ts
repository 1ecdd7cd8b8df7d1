/**
 * Asking the issuer again from review: who may (the claim's holder, for an item the issuer gave
 * no answer for), how often (once every ten minutes an item), what it records (the lookup state,
 * its audit record, the queue's message), and what the issuer queue's reader makes of the answer
 * (the same checks: completed when they decide, otherwise still in review, revised). The personal
 * keys a lookup needs stay sealed or digested while such a review may ask again, and go with it.
 */
import { describe, expect, it } from "vitest";
import { RECHECK_GAP_SECONDS, RECHECK_WINDOW_SECONDS } from "#shared/domain/issuer";
import type { VerificationItem } from "#shared/domain/verification";
import type { IssuerAnswer } from "#shared/ports/authority";
import { askedAnswer } from "#shared/use-cases/issuer/answers";
import { processVerification } from "#shared/use-cases/processing/process-verification";
import { askIssuerAgain } from "#shared/use-cases/review/ask-again";
import { claimReview } from "#shared/use-cases/review/claim";
import { decideReview } from "#shared/use-cases/review/decide";
import {
  aVerification,
  CERTIFICATE_LINES,
  documentBytes,
  InMemoryAppStore,
  InMemoryAuditTrail,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  KeyedDigest,
  pageContent,
  RecordingIssuerQueue,
  RecordingLog,
  ScriptedAuthority,
  ScriptedReader,
  TaggingSealer,
  tagSealed,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const ID = verificationId(1);
const UPLOAD = documentBytes("pdf", 1024);
const NOW = "2026-11-22T12:10:00Z";
const UNAVAILABLE: IssuerAnswer = { kind: "unavailable", cause: "timeout" };

const staff = (sub: string) => ({
  actor: { pool: "staff" as const, sub, username: `user-${sub}` },
  requestId: `req-${sub}`,
  sourceIp: "192.0.2.1",
});
const AYSE = staff("ayse");
const MEHMET = staff("mehmet");

/** A verification in processing whose issuer gives no answer: the reader takes it to review. */
async function inReviewUnanswered(item: Partial<VerificationItem> = {}) {
  const trail = new InMemoryAuditTrail();
  const verifications = new InMemoryVerificationStore(trail).put(
    aVerification({ status: "processing", sequence: 2, updated_at: "2026-11-22T12:00:00Z", ...item }),
  );
  const documents = new InMemoryDocumentStore();
  if (!item.submitted_keys) documents.upload(`documents/${ID}`, UPLOAD);
  const reader = new ScriptedReader();
  reader.content = pageContent([...CERTIFICATE_LINES]);
  const authority = new ScriptedAuthority(UNAVAILABLE);
  const queue = new RecordingIssuerQueue();
  const clock = new FixedClock(NOW);
  const deps = {
    verifications,
    documents,
    reader,
    issuer: queue,
    authority,
    queue,
    sealer: new TaggingSealer(),
    subjects: new KeyedDigest(),
    apps: new InMemoryAppStore(),
    clock,
    log: new RecordingLog(),
    retryWindowSeconds: 0,
    random: () => 0.5,
    stopwatch: () => 0,
  };
  /** The issuer queue's reader, holding the message for `attempt`. */
  const read = (attempt: number) => processVerification(deps, ID, askedAnswer(deps, attempt));
  await read(1);
  expect(verifications.stored(ID)).toMatchObject({ status: "in_review", review_reason: "issuer_unavailable" });
  return { deps, verifications, trail, authority, queue, clock, read };
}

const later = (clock: FixedClock, seconds: number) =>
  clock.set(new Date(clock.now().getTime() + seconds * 1000).toISOString().replace(".000", ""));

describe("asking the issuer again", () => {
  it("only the claim's holder may, for an item the issuer gave no answer for", async () => {
    const { deps, verifications, queue } = await inReviewUnanswered();
    await expect(askIssuerAgain(deps, AYSE, ID)).rejects.toMatchObject({ code: "review_not_claimed" });
    await claimReview(deps, MEHMET, ID);
    await expect(askIssuerAgain(deps, AYSE, ID)).rejects.toMatchObject({ code: "review_claimed" });
    await expect(askIssuerAgain(deps, AYSE, verificationId(9))).rejects.toMatchObject({
      code: "verification_not_found",
    });

    const other = aVerification({ verification_id: verificationId(2), status: "in_review", sequence: 3 });
    verifications.put({ ...other, review_reason: "fields_incomplete", issuer: verifications.stored(ID)?.issuer });
    await claimReview(deps, AYSE, verificationId(2));
    await expect(askIssuerAgain(deps, AYSE, verificationId(2))).rejects.toMatchObject({ code: "issuer_not_askable" });
    // An environment that asks no issuer (any more): nothing to ask again.
    await expect(askIssuerAgain({ ...deps, queue: undefined }, MEHMET, ID)).rejects.toMatchObject({
      code: "issuer_not_askable",
    });
    expect(queue.messages).toHaveLength(0);
  });

  it("records who asked with its audit record, sends the lookup's next attempt, and shows it under way", async () => {
    const { deps, verifications, trail, queue } = await inReviewUnanswered();
    await claimReview(deps, AYSE, ID);
    const before = verifications.stored(ID);

    const view = await askIssuerAgain(deps, AYSE, ID);

    expect(view.issuer_recheck).toEqual({
      asked_at: NOW,
      asked_by: "user-ayse",
      under_way: true,
      allowed_from: "2026-11-22T12:20:00Z",
    });
    const stored = verifications.stored(ID);
    expect(stored).toMatchObject({ status: "in_review", sequence: before?.sequence });
    expect(stored?.issuer).toMatchObject({ attempts: 1, first_at: NOW, retry_until: "2026-11-22T12:11:00Z" });
    expect(stored?.issuer?.answer).toBeUndefined();
    expect(queue.messages).toEqual([{ verification_id: ID, attempt: 2, delaySeconds: 0 }]);
    expect(trail.records.map((record) => record.action)).toEqual(["review.claimed", "review.issuer_asked"]);
    expect(trail.records[1]).toMatchObject({ verification_id: ID, actor: { sub: "ayse" } });
  });

  it("at most once every ten minutes an item, whoever holds the claim", async () => {
    const { deps, clock, read } = await inReviewUnanswered();
    await claimReview(deps, AYSE, ID);
    await askIssuerAgain(deps, AYSE, ID);
    await expect(askIssuerAgain(deps, AYSE, ID)).rejects.toMatchObject({ code: "issuer_asked_recently" });
    // The answer (none again) does not shorten the wait.
    later(clock, RECHECK_WINDOW_SECONDS);
    await read(2);
    await expect(askIssuerAgain(deps, AYSE, ID)).rejects.toMatchObject({ code: "issuer_asked_recently" });
    later(clock, RECHECK_GAP_SECONDS - RECHECK_WINDOW_SECONDS);
    await expect(askIssuerAgain(deps, AYSE, ID)).resolves.toMatchObject({ issuer_recheck: { under_way: true } });
  });

  it("an answer the checks decide completes the verification, asked with the document's keys", async () => {
    const { deps, verifications, authority, read } = await inReviewUnanswered();
    await claimReview(deps, AYSE, ID);
    await askIssuerAgain(deps, AYSE, ID);
    authority.answer = { kind: "found", document: UPLOAD };

    const final = await read(2);

    expect(final).toEqual(verifications.stored(ID));
    expect(final).toMatchObject({ status: "completed", result: "verified", issuer: { answer: "found" } });
    expect(final?.checks.find((check) => check.name === "authority_match")).toMatchObject({
      outcome: "passed",
      detail_code: "issuer_copy_same_bytes",
    });
    expect(authority.asked.at(-1)).toMatchObject({ barcode: "YOK-7Q4M-2K9D", identityNumber: "10000000146" });
  });

  it("no answer again: one more attempt at the window's end, then still in review, revised, its window unchanged", async () => {
    const { deps, verifications, authority, queue, clock, read } = await inReviewUnanswered();
    await claimReview(deps, AYSE, ID);
    const before = verifications.stored(ID);
    await askIssuerAgain(deps, AYSE, ID);
    authority.answer = { kind: "unavailable", cause: "busy" };

    await read(2);
    expect(queue.messages.at(-1)).toMatchObject({ attempt: 3, delaySeconds: RECHECK_WINDOW_SECONDS });
    later(clock, RECHECK_WINDOW_SECONDS);
    const final = await read(3);

    expect(authority.asked).toHaveLength(3);
    expect(final).toMatchObject({
      status: "in_review",
      review_reason: "issuer_unavailable",
      review_required_at: before?.review_required_at,
      review_deadline: before?.review_deadline,
      claimed_by_sub: "ayse",
      sequence: (before?.sequence ?? 0) + 1,
      issuer: { answer: "unavailable", last_cause: "busy" },
    });
    expect(final?.checks.find((check) => check.name === "authority_match")).toMatchObject({
      outcome: "skipped",
      detail_code: "issuer_no_answer",
      detail_params: { cause: "busy" },
    });
  });

  it("a verification by its keys keeps its identity number sealed while in review, asks with it, and forgets it on the answer", async () => {
    const sealed = tagSealed("10000000146");
    const { deps, verifications, authority, read } = await inReviewUnanswered({
      submitted_keys: { barcode: "YOK-7Q4M-2K9D", identity_number_sealed: sealed },
      media_type: undefined,
      file_size_bytes: undefined,
      original_filename: undefined,
    });
    expect(verifications.stored(ID)?.submitted_keys).toEqual({
      barcode: "YOK-7Q4M-2K9D",
      identity_number_sealed: sealed,
    });
    await claimReview(deps, AYSE, ID);
    await askIssuerAgain(deps, AYSE, ID);
    authority.answer = { kind: "not_found" };

    const final = await read(2);

    expect(authority.asked.at(-1)).toMatchObject({ barcode: "YOK-7Q4M-2K9D", identityNumber: "10000000146" });
    expect(final).toMatchObject({
      status: "completed",
      result: "rejected",
      submitted_keys: { barcode: "YOK-7Q4M-2K9D" },
    });
    expect(final?.submitted_keys?.identity_number_sealed).toBeUndefined();
  });

  it("the expected identity number's digest stays while the review may ask again, and goes with the reviewer's decision", async () => {
    const { deps, verifications } = await inReviewUnanswered({
      expected_subject: { full_name: "AYŞE DENEME", identity_number_digest: "digest-of-10000000146" },
    });
    expect(verifications.stored(ID)?.expected_subject?.identity_number_digest).toBe("digest-of-10000000146");
    await claimReview(deps, AYSE, ID);
    const sequence = verifications.stored(ID)?.sequence ?? 0;

    await decideReview(deps, AYSE, {
      verificationId: ID,
      ifMatch: `"${sequence}"`,
      decision: { result: "verified" },
    });

    expect(verifications.stored(ID)).toMatchObject({
      status: "completed",
      expected_subject: { full_name: "AYŞE DENEME" },
    });
    expect(verifications.stored(ID)?.expected_subject?.identity_number_digest).toBeUndefined();
  });
});
