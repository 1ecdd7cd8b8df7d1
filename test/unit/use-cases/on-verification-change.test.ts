import { describe, expect, it } from "vitest";
import type { VerificationItem } from "#shared/domain/verification";
import { onVerificationChange } from "#shared/use-cases/processing/on-verification-change";
import {
  aVerification,
  documentBytes,
  InMemoryDocumentStore,
  InMemoryEventStore,
  InMemoryUsageStore,
  InMemoryVerificationStore,
  KeyedDigest,
  RecordingDeliveryQueue,
  RecordingIssuerQueue,
  RecordingLog,
  ScriptedReader,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const ID = verificationId(1);
const awaiting = aVerification({ updated_at: "2026-11-22T11:00:00Z" });
/** The change the confirm made, as the stream shows it. */
const processing = aVerification({
  status: "processing",
  sequence: 2,
  updated_at: "2026-11-22T11:59:50Z",
  // The sandbox prefix decides, so these tests are about the reaction, not the checks.
  external_reference_id: "test_verified_1",
});

/** With `issuer`, the environment asks one (its checks go to the issuer queue); without, they run in the stream. */
function setup(options: { stored?: VerificationItem; issuer?: RecordingIssuerQueue } = {}) {
  const verifications = new InMemoryVerificationStore().put(options.stored ?? processing);
  const documents = new InMemoryDocumentStore().upload(`documents/${ID}`, documentBytes("pdf", 1024));
  const events = new InMemoryEventStore();
  const queue = new RecordingDeliveryQueue();
  const log = new RecordingLog();
  const clock = new FixedClock(T0);
  const usage = new InMemoryUsageStore();
  const deps = {
    usage,
    verifications,
    documents,
    reader: new ScriptedReader(),
    issuer: options.issuer,
    subjects: new KeyedDigest(),
    clock,
    events,
    queue,
    log,
    slept: [] as number[],
    async sleep(ms: number) {
      deps.slept.push(ms);
    },
  };
  return { verifications, events, queue, log, usage, deps };
}

/** What each queued event carries: its type and the verification's status and sequence in it. */
function queued(events: InMemoryEventStore, queue: RecordingDeliveryQueue) {
  return queue.messages.map((message) => {
    const event = events.events.get(message.event_id);
    const body = JSON.parse(event?.body ?? "{}");
    expect(message.app_id).toBe(event?.app_id);
    return [body.type, body.data.verification.status, body.data.verification.sequence];
  });
}

describe("onVerificationChange", () => {
  it("with an issuer, sends a move to processing to the issuer queue once, reading no document: its reader runs the checks", async () => {
    const lookups = new RecordingIssuerQueue();
    const { verifications, events, queue, deps } = setup({ issuer: lookups });
    const reader = deps.reader as ScriptedReader;

    await onVerificationChange(deps, { before: awaiting, after: processing });
    await onVerificationChange(deps, {
      before: awaiting,
      after: { ...processing, issuer: { rev: 1, attempts: 1, first_at: T0, retry_until: T0 } },
    });

    expect(lookups.messages).toEqual([{ verification_id: ID, attempt: 1, delaySeconds: 0 }]);
    expect(reader.opened).toEqual([]);
    expect(verifications.stored(ID)).toMatchObject({ status: "processing", sequence: 2 });
    expect(queued(events, queue)).toEqual([["verification.processing", "processing", 2]]);
  });

  it("on a move to processing, records the processing event and queues it before the checks run, then runs them", async () => {
    const { verifications, events, queue, deps } = setup();
    let statusWhenQueued: string | undefined;
    queue.onSend = () => {
      statusWhenQueued = verifications.stored(ID).status;
    };

    await onVerificationChange(deps, { before: awaiting, after: processing });

    expect(verifications.stored(ID)).toMatchObject({ status: "completed", result: "verified", sequence: 3 });
    expect(statusWhenQueued).toBe("processing");
    expect(queued(events, queue)).toEqual([["verification.processing", "processing", 2]]);
    // Its first attempt is the queue's for 30 s; then the tick's.
    expect([...events.events.values()].map((event) => [event.type, event.status, event.next_attempt_at])).toEqual([
      ["verification.processing", "pending", "2026-11-22T12:00:30Z"],
    ]);
  });

  it("when the checks cannot run, fails the change (the stream retries it); the retry runs them and sends its event no second time", async () => {
    const { verifications, events, queue, deps } = setup();
    const outage = new Error("the bucket is unavailable");
    const read = deps.documents.read;
    deps.documents.read = async () => {
      throw outage;
    };

    await expect(onVerificationChange(deps, { before: awaiting, after: processing })).rejects.toBe(outage);
    expect(verifications.stored(ID).status).toBe("processing");
    expect(queued(events, queue)).toEqual([["verification.processing", "processing", 2]]);

    deps.documents.read = read;
    await onVerificationChange(deps, { before: awaiting, after: processing });
    expect(verifications.stored(ID)).toMatchObject({ status: "completed", result: "verified", sequence: 3 });
    expect(events.events.size).toBe(1);
    expect(queued(events, queue)).toEqual([["verification.processing", "processing", 2]]);
  });

  it("on the move to a terminal state, records and queues its event and runs no checks", async () => {
    const completed = aVerification({
      status: "completed",
      result: "verified",
      sequence: 3,
      updated_at: "2026-11-22T11:59:55Z",
    });
    const { verifications, events, queue, deps } = setup({ stored: completed });

    await onVerificationChange(deps, { before: processing, after: completed });

    expect(queued(events, queue)).toEqual([["verification.completed", "completed", 3]]);
    expect(verifications.transitions).toEqual([]);
  });

  it("on an expiry, records and queues verification.expired", async () => {
    const expired = aVerification({ status: "expired", sequence: 2, updated_at: awaiting.upload_deadline });
    const { events, queue, deps } = setup({ stored: expired });

    await onVerificationChange(deps, { before: awaiting, after: expired });

    expect(queued(events, queue)).toEqual([["verification.expired", "expired", 2]]);
  });

  it("does nothing twice for a change seen twice", async () => {
    const { verifications, events, queue, deps } = setup();
    await onVerificationChange(deps, { before: awaiting, after: processing });

    await onVerificationChange(deps, { before: awaiting, after: processing });

    expect(queue.messages).toHaveLength(1);
    expect(events.events.size).toBe(1);
    expect(verifications.stored(ID).sequence).toBe(3);
  });

  it.each([
    ["a new verification", undefined, awaiting],
    ["a removal", awaiting, undefined],
    ["a change that keeps the status", processing, { ...processing, checks: [] }],
  ])("does nothing for %s", async (_what, before, after) => {
    const { verifications, events, queue, deps } = setup();

    await onVerificationChange(deps, { before, after });

    expect(events.events.size).toBe(0);
    expect(queue.messages).toEqual([]);
    expect(verifications.stored(ID)).toEqual(processing);
  });

  it("when the queue cannot take the event, logs it, leaves the event pending for the tick and lets the stream go on", async () => {
    const { events, queue, log, deps } = setup();
    queue.failNext = new Error("the queue is unavailable");

    await onVerificationChange(deps, { before: awaiting, after: processing });

    const [event] = [...events.events.values()];
    expect(event).toMatchObject({ status: "pending", attempts: 0, next_attempt_at: "2026-11-22T12:00:30Z" });
    expect(queue.messages).toEqual([]);
    expect(log.lines).toEqual([
      {
        level: "error",
        message: "webhook event not queued",
        attributes: { error: expect.any(Error), event_id: event?.event_id },
      },
    ]);
  });

  it("a sandbox review reference: queues the in_review event, then decides a few seconds later", async () => {
    const inReview = aVerification({
      status: "in_review",
      sequence: 3,
      external_reference_id: "test_review_rejected_1",
      review_reason: "review_requested",
      review_required_at: "2026-11-22T11:59:58Z",
    });
    const { verifications, events, queue, deps } = setup({ stored: inReview });

    await onVerificationChange(deps, { before: { ...inReview, status: "processing", sequence: 2 }, after: inReview });

    expect(queued(events, queue)).toEqual([["verification.in_review", "in_review", 3]]);
    expect(deps.slept).toEqual([3000]);
    expect(verifications.stored(ID)).toMatchObject({
      status: "completed",
      result: "rejected",
      sequence: 4,
      reasons: [{ code: "not_genuine" }],
      review_decided_at: T0,
    });
  });

  it("an in_review change without a sandbox review reference waits for a person", async () => {
    const inReview = aVerification({ status: "in_review", sequence: 3, review_reason: "issuer_unavailable" });
    const { verifications, deps } = setup({ stored: inReview });

    await onVerificationChange(deps, { before: { ...inReview, status: "processing", sequence: 2 }, after: inReview });

    expect(deps.slept).toEqual([]);
    expect(verifications.stored(ID)).toMatchObject({ status: "in_review", sequence: 3 });
  });

  it("counts a verification in usage once, on the day it reached its final state, however often the change is seen", async () => {
    const { usage, deps } = setup();
    const completed = { ...processing, status: "completed" as const, result: "rejected" as const, sequence: 3 };
    await onVerificationChange(deps, { before: processing, after: completed });
    await onVerificationChange(deps, { before: processing, after: completed });
    await onVerificationChange(deps, { before: awaiting, after: processing });

    expect(await usage.read(completed.app_id, "2026-11-22", "2026-11-22")).toEqual([
      { appId: completed.app_id, day: "2026-11-22", counts: { rejected: 1 } },
    ]);
  });

  it("on an erasure, rewrites the events sent before and sends verification.redacted, counting nothing again", async () => {
    const { usage, events, deps } = setup();
    const completed = { ...processing, status: "completed" as const, result: "rejected" as const, sequence: 3 };
    await onVerificationChange(deps, { before: processing, after: completed });
    // Long after: the mark that it was counted has expired, as it does after 7 days, and the
    // event's body is one an older version recorded, without the fields added since.
    usage.counted.clear();
    for (const event of events.events.values()) {
      const old = JSON.parse(event.body);
      delete old.data.verification.redacted_at;
      event.body = JSON.stringify(old);
    }
    const erased = {
      ...completed,
      sequence: 4,
      redacted_at: "2026-12-30T00:00:00Z",
      updated_at: "2026-12-30T00:00:00Z",
    };
    delete (erased as Partial<typeof erased>).external_reference_id;

    await onVerificationChange(deps, { before: completed, after: erased });

    expect(await usage.read(completed.app_id, "2026-11-01", "2026-12-31")).toEqual([
      { appId: completed.app_id, day: "2026-11-22", counts: { rejected: 1 } },
    ]);
    const kept = [...events.events.values()].filter((event) => event.verification_id === completed.verification_id);
    expect(kept.map((event) => event.type)).toEqual(["verification.completed", "verification.redacted"]);
    for (const event of kept) {
      expect(JSON.parse(event.body).data.verification).toMatchObject({
        redacted_at: "2026-12-30T00:00:00Z",
        checks: [],
      });
    }
  });
});
