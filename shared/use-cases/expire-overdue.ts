import { partitionsOf } from "../domain/shards.ts";
import { isoSeconds } from "../domain/time.ts";
import type { Clock } from "../ports/clock.ts";
import type { VerificationStore } from "../ports/verification-store.ts";
import { inParallel } from "./in-parallel.ts";

/** How many days of deadlines the tick looks back over: enough to outlast a long outage. */
export const EXPIRY_LOOKBACK_DAYS = 7;

/** How many of a day's index partitions the tick reads at once. */
export const EXPIRY_CONCURRENCY = 4;

/**
 * Moves every awaiting_upload verification past its deadline to `expired`, as of its
 * deadline; the change stream then sends its event. Reads already show them as expired.
 * Each day's deadlines sit in several partitions (`shards.ts`), read a few at a time.
 */
export async function expireOverdue(deps: {
  verifications: Pick<VerificationStore, "awaitingPastDeadline" | "transition">;
  clock: Clock;
}): Promise<number> {
  const { verifications } = deps;
  const now = deps.clock.now();
  const nowIso = isoSeconds(now);
  const partitions: string[] = [];
  for (let back = EXPIRY_LOOKBACK_DAYS; back >= 0; back -= 1) {
    partitions.push(...partitionsOf(isoSeconds(new Date(now.getTime() - back * 86_400_000)).slice(0, 10)));
  }
  let expired = 0;
  await inParallel(partitions, EXPIRY_CONCURRENCY, async (partition) => {
    for await (const item of verifications.awaitingPastDeadline(partition, nowIso)) {
      const outcome = await verifications.transition({
        id: item.verification_id,
        from: "awaiting_upload",
        to: "expired",
        now: item.upload_deadline,
        // Its life ended at the deadline, as for every final state.
        set: { completed_at: item.upload_deadline },
        condition: { expression: "upload_deadline <= :deadline", values: { ":deadline": nowIso } },
      });
      if (outcome.applied) expired += 1;
    }
  });
  return expired;
}
