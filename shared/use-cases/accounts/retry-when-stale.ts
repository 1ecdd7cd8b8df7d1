/** A change to an app run again when another change got there first. */
import { RefusedError, StaleAppError } from "../../domain/errors.ts";

const ATTEMPTS = 3;

/**
 * Runs a read-decide-write step again when its write lost a race with another change to the
 * same app, so each attempt decides on what is stored now.
 */
export async function retryWhenStale<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof StaleAppError)) throw error;
      if (attempt >= ATTEMPTS) {
        throw new RefusedError("concurrent_change", "The app kept changing while this ran; run the command again");
      }
    }
  }
}
