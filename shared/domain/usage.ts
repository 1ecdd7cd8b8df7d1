/**
 * What usage counts: each verification once, by its outcome, when it reaches its final state.
 * Apart from the portal's requests, so the change stream's consumer, which counts, carries none of them.
 */
import type { Result, Status } from "./state.ts";

/** The outcomes usage counts. */
export const USAGE_OUTCOMES = ["verified", "rejected", "inconclusive", "failed", "expired"] as const;
export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];

/** What usage counts a verification as, once it is final; undefined while it is not. */
export function usageOutcome(item: { status: Status; result?: Result }): UsageOutcome | undefined {
  if (item.status === "completed") return item.result;
  if (item.status === "failed" || item.status === "expired") return item.status;
  return undefined;
}
