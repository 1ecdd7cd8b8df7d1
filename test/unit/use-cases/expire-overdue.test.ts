import { describe, expect, it } from "vitest";
import { PARTITION_SHARDS } from "#shared/domain/shards";
import type { VerificationItem } from "#shared/domain/verification";
import { EXPIRY_CONCURRENCY, expireOverdue } from "#shared/use-cases/expire-overdue";
import { aVerification, InMemoryVerificationStore, verificationId } from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const NOW = "2026-11-30T12:00:00Z";

function awaiting(n: number, deadline: string): VerificationItem {
  return aVerification({ verification_id: verificationId(n), upload_deadline: deadline });
}

function setup(...items: VerificationItem[]) {
  const verifications = new InMemoryVerificationStore().put(...items);
  const clock = new FixedClock(NOW);
  return { verifications, clock, deps: { verifications, clock } };
}

describe("expireOverdue", () => {
  it("expires every awaited verification past its deadline, as of its deadline", async () => {
    const { verifications, deps } = setup(
      awaiting(1, "2026-11-30T11:59:59Z"),
      awaiting(2, "2026-11-29T08:00:00Z"),
      awaiting(3, NOW),
    );

    const expired = await expireOverdue(deps);

    expect(expired).toBe(3);
    expect(verifications.stored(verificationId(1))).toMatchObject({
      status: "expired",
      sequence: 2,
      updated_at: "2026-11-30T11:59:59Z",
    });
    expect(verifications.stored(verificationId(2))).toMatchObject({
      status: "expired",
      sequence: 2,
      updated_at: "2026-11-29T08:00:00Z",
    });
    expect(verifications.stored(verificationId(3))).toMatchObject({ status: "expired", updated_at: NOW });
    expect(verifications.stored(verificationId(1))).not.toHaveProperty("awaiting_day");
  });

  it("asks each expiry to hold only while the deadline is still past", async () => {
    const { verifications, deps } = setup(awaiting(1, "2026-11-30T11:00:00Z"));

    await expireOverdue(deps);

    expect(verifications.transitions).toEqual([
      {
        id: verificationId(1),
        from: "awaiting_upload",
        to: "expired",
        now: "2026-11-30T11:00:00Z",
        set: { completed_at: "2026-11-30T11:00:00Z" },
        condition: { expression: "upload_deadline <= :deadline", values: { ":deadline": NOW } },
      },
    ]);
  });

  it("leaves a verification whose deadline is still ahead", async () => {
    const { verifications, deps } = setup(awaiting(1, "2026-11-30T12:00:01Z"), awaiting(2, "2026-12-01T00:00:00Z"));

    expect(await expireOverdue(deps)).toBe(0);
    expect(verifications.stored(verificationId(1)).status).toBe("awaiting_upload");
    expect(verifications.stored(verificationId(2)).status).toBe("awaiting_upload");
  });

  it("looks back seven days of deadlines, and no further", async () => {
    const { verifications, deps } = setup(awaiting(1, "2026-11-23T00:00:00Z"), awaiting(2, "2026-11-22T23:59:59Z"));

    expect(await expireOverdue(deps)).toBe(1);
    expect(verifications.stored(verificationId(1)).status).toBe("expired");
    expect(verifications.stored(verificationId(2)).status).toBe("awaiting_upload");
  });

  it("leaves verifications that moved on", async () => {
    const processing = aVerification({
      verification_id: verificationId(1),
      status: "processing",
      sequence: 2,
      upload_deadline: "2026-11-30T08:00:00Z",
    });
    const { verifications, deps } = setup(processing);

    expect(await expireOverdue(deps)).toBe(0);
    expect(verifications.stored(verificationId(1))).toEqual(processing);
  });

  it("finds deadlines in every shard of a day, and under the day alone as written before sharding", async () => {
    const many = Array.from({ length: 64 }, (_, i) => awaiting(i + 1, "2026-11-30T09:00:00Z"));
    const older = { ...awaiting(100, "2026-11-29T09:00:00Z"), awaiting_day: "2026-11-29" };
    const { verifications, deps } = setup(...many, older);
    expect(new Set(many.map((item) => item.awaiting_day)).size).toBe(PARTITION_SHARDS);

    expect(await expireOverdue(deps)).toBe(65);
    for (const item of [...many, older]) {
      expect(verifications.stored(item.verification_id)).toMatchObject({ status: "expired" });
    }
  });

  it("reads at most EXPIRY_CONCURRENCY partitions at once", async () => {
    const { verifications, clock } = setup(awaiting(1, "2026-11-30T08:00:00Z"));
    let reading = 0;
    let most = 0;
    const counting = {
      async *awaitingPastDeadline(partition: string, now: string) {
        reading += 1;
        most = Math.max(most, reading);
        await new Promise((resolve) => setTimeout(resolve, 1));
        yield* verifications.awaitingPastDeadline(partition, now);
        reading -= 1;
      },
      transition: verifications.transition.bind(verifications),
    };

    expect(await expireOverdue({ verifications: counting, clock })).toBe(1);
    expect(most).toBe(EXPIRY_CONCURRENCY);
  });

  it("does nothing the second time", async () => {
    const { deps } = setup(awaiting(1, "2026-11-30T08:00:00Z"));
    await expireOverdue(deps);

    expect(await expireOverdue(deps)).toBe(0);
  });

  it("does not count a verification confirmed between the read and the write", async () => {
    const seen = awaiting(1, "2026-11-30T08:00:00Z");
    const { verifications, clock } = setup({ ...seen, status: "processing", sequence: 2 });
    const stale = {
      // The query saw it awaiting; by the time of the write it is processing.
      async *awaitingPastDeadline(partition: string) {
        if (partition === seen.awaiting_day) yield seen;
      },
      transition: verifications.transition.bind(verifications),
    };

    expect(await expireOverdue({ verifications: stale, clock })).toBe(0);
    expect(verifications.stored(verificationId(1))).toMatchObject({ status: "processing", sequence: 2 });
  });
});
