/** The app as stored now: read it or refuse, and run a change again when another change got there first. */
import type { AppItem } from "../../domain/apps.ts";
import { NotFoundError, RefusedError, StaleAppError } from "../../domain/errors.ts";
import type { AppStore } from "../../ports/app-store.ts";

export function appNotFound(appId: string): NotFoundError {
  return new NotFoundError("app_not_found", `No app ${appId} in this environment`);
}

export async function requireApp(apps: Pick<AppStore, "getApp">, appId: string): Promise<AppItem> {
  const app = await apps.getApp(appId);
  if (!app) throw appNotFound(appId);
  return app;
}

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
