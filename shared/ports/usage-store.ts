import type { UsageOutcome } from "../domain/usage.ts";

/** A day's counts of one app, by outcome. */
export interface UsageCounts {
  appId: string;
  day: string;
  counts: Partial<Record<UsageOutcome, number>>;
}

/** Verifications per app, per UTC day, per outcome: counters, never a scan. */
export interface UsageStore {
  /** Adds one to the app's count of `outcome` on `day`, once per verification however often it is called. */
  count(input: { appId: string; day: string; outcome: UsageOutcome; verificationId: string }): Promise<void>;
  /** The app's days from `from` to `to` (inclusive) that have counts. */
  read(appId: string, from: string, to: string): Promise<UsageCounts[]>;
}
