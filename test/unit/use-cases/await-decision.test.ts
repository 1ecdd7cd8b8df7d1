/**
 * A sync create by keys waits for the decision as a sync confirm does: it reads the verification
 * again until it is decided, and answers `processing` when the wait ends first.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { toResource } from "#shared/domain/verification";
import { awaitDecision, SYNC_POLL_MS, SYNC_WAIT_SECONDS } from "#shared/use-cases/public/await-decision";
import { aVerification, InMemoryVerificationStore, verificationId } from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const ID = verificationId(1);
const processing = aVerification({ status: "processing", process_type: "sync" });

function setup() {
  const verifications = new InMemoryVerificationStore().put(processing);
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  return { verifications, deps: { verifications, clock: new FixedClock(T0), sleep } };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("awaitDecision", () => {
  it("answers an async verification as created, reading nothing", async () => {
    const { verifications, deps } = setup();
    const created = toResource(aVerification({ status: "processing" }), "2026-11-22T11:00:00Z");
    expect(await awaitDecision(deps, created)).toBe(created);
    expect(verifications.reads).toEqual([]);
  });

  it("answers the decision once the verification is read decided", async () => {
    vi.useFakeTimers();
    const { verifications, deps } = setup();
    const waiting = awaitDecision(deps, toResource(processing, "2026-11-22T11:00:00Z"));
    await vi.advanceTimersByTimeAsync(SYNC_POLL_MS * 3);
    verifications.put({ ...processing, status: "in_review", review_reason: "issuer_unavailable" });
    await vi.advanceTimersByTimeAsync(SYNC_POLL_MS);
    const answer = await waiting;
    expect(answer).toMatchObject({ verification_id: ID, status: "in_review", reason_code: "issuer_unavailable" });
  });

  it("answers processing when the wait ends before a decision, and stops reading", async () => {
    vi.useFakeTimers();
    const { verifications, deps } = setup();
    const created = toResource(processing, "2026-11-22T11:00:00Z");
    const waiting = awaitDecision(deps, created);
    await vi.advanceTimersByTimeAsync(SYNC_WAIT_SECONDS * 1000 + SYNC_POLL_MS);
    expect(await waiting).toBe(created);
    const reads = verifications.reads.length;
    expect(reads).toBeGreaterThan((SYNC_WAIT_SECONDS * 1000) / SYNC_POLL_MS - 5);
    await vi.advanceTimersByTimeAsync(SYNC_POLL_MS * 5);
    expect(verifications.reads.length).toBe(reads);
  });
});
