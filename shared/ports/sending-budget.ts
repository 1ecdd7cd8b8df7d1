import type { SendingKind } from "../domain/tenant-limits.ts";

/** How many sends of a kind an app has made in its current window (`SENDING_LIMITS`). */
export interface SendingBudget {
  /**
   * Takes one send of `kind` for the app at `now`, within `SENDING_LIMITS`: `taken`, or the
   * seconds until the app's window ends and one may be taken again, taking nothing.
   */
  take(
    appId: string,
    kind: SendingKind,
    now: Date,
  ): Promise<{ taken: true } | { taken: false; retryAfterSeconds: number }>;
}
