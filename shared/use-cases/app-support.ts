/** What the app, key and webhook use cases share: their errors, and reading an app. */
import { type AppItem, type AppStore, StaleAppError } from "../app-store.ts";

/** A value that is not well formed (a name, a URL that does not parse). */
export class InvalidInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidInputError";
  }
}

export class AppNotFoundError extends Error {
  constructor(appId: string) {
    super(`No app ${appId} in this environment`);
    this.name = "AppNotFoundError";
  }
}

export class KeyNotFoundError extends Error {
  constructor(appId: string, prefix: string) {
    super(`App ${appId} has no live key with prefix ${prefix}`);
    this.name = "KeyNotFoundError";
  }
}

export type RefusalCode =
  | "too_many_live_keys"
  | "grace_out_of_range"
  | "webhook_url_not_allowed"
  | "environment_mismatch"
  | "ambiguous_key_prefix"
  | "concurrent_change";

/** A well-formed request that a rule refuses. */
export class RefusedError extends Error {
  readonly code: RefusalCode;

  constructor(code: RefusalCode, message: string) {
    super(message);
    this.name = "RefusedError";
    this.code = code;
  }
}

export async function requireApp(apps: AppStore, appId: string): Promise<AppItem> {
  const app = await apps.getApp(appId);
  if (!app) throw new AppNotFoundError(appId);
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
