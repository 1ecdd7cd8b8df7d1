import { isoSeconds } from "../../domain/time.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { completeReview } from "../review/complete.ts";
import { EXPIRY_LOOKBACK_DAYS } from "./expire-overdue.ts";

/**
 * Ends every review nobody decided within its window: `completed`, `inconclusive`, reason
 * `review_timeout`. The change stream then sends its event.
 */
export async function closeOverdueReviews(deps: {
  verifications: Pick<VerificationStore, "inReviewPastDeadline" | "transition">;
  clock: Clock;
}): Promise<number> {
  const now = deps.clock.now();
  const nowIso = isoSeconds(now);
  let closed = 0;
  for (let back = EXPIRY_LOOKBACK_DAYS; back >= 0; back -= 1) {
    const day = isoSeconds(new Date(now.getTime() - back * 86_400_000)).slice(0, 10);
    for await (const item of deps.verifications.inReviewPastDeadline(day, nowIso)) {
      const outcome = await completeReview(deps, item, { result: "inconclusive", reasonCode: "review_timeout" });
      if (outcome.applied) closed += 1;
    }
  }
  return closed;
}
