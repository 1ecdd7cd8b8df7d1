import { isLiveKey } from "../../domain/apps.ts";
import { hashApiKey, keyEnvironment } from "../../domain/credentials.ts";
import type { Environment } from "../../domain/environments.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";

export type Authorization =
  | { outcome: "allow"; appId: string; environment: Environment }
  /** The key is good but its app is disabled. */
  | { outcome: "deny"; appId: string }
  /** Missing, malformed, unknown, revoked, expired or of the other environment. */
  | { outcome: "unauthorized" };

/** Decides what an API key may do, with at most one read of the apps table. */
export async function authorize(
  deps: { apps: Pick<AppStore, "getKey">; environment: Environment; clock: Clock },
  apiKey: string | undefined,
): Promise<Authorization> {
  if (!apiKey || keyEnvironment(apiKey) !== deps.environment) return { outcome: "unauthorized" };
  const key = await deps.apps.getKey(hashApiKey(apiKey));
  const now = isoSeconds(deps.clock.now());
  if (!key || key.environment !== deps.environment || !isLiveKey(key, now)) {
    return { outcome: "unauthorized" };
  }
  if (key.app_status !== "active") return { outcome: "deny", appId: key.key_app_id };
  return { outcome: "allow", appId: key.key_app_id, environment: key.environment };
}
