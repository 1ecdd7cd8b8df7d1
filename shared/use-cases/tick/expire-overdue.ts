import { isoSeconds } from "../../domain/time.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

/** How many days of deadlines the tick looks back over: enough to outlast a long outage. */
export const EXPIRY_LOOKBACK_DAYS = 7;

/**
 * Moves every awaiting_upload verification past its deadline to `expired`, as of its
 * deadline; the change stream then sends its event. Reads already show them as expired.
 */
export async function expireOverdue(deps: {
  verifications: Pick<VerificationStore, "awaitingPastDeadline" | "transition">;
  clock: Clock;
}): Promise<number> {
  const { verifications } = deps;
  const now = deps.clock.now();
  const nowIso = isoSeconds(now);
  const since = isoSeconds(new Date(now.getTime() - EXPIRY_LOOKBACK_DAYS * 86_400_000)).slice(0, 10);
  let expired = 0;
  await verifications.awaitingPastDeadline(since, nowIso, async (item) => {
    const outcome = await verifications.transition({
      id: item.verification_id,
      from: "awaiting_upload",
      to: "expired",
      now: item.upload_deadline,
      // Its life ended at the deadline, as for every final state.
      set: { completed_at: item.upload_deadline },
      expect: { deadlinePassedBy: nowIso },
    });
    if (outcome.applied) expired += 1;
  });
  return expired;
}
