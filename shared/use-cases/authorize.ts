import type { AppStore } from "../app-store.ts";
import type { Environment } from "../config.ts";
import { hashApiKey, keyEnvironment } from "../credentials.ts";
import { isoSeconds, nowSeconds } from "../time.ts";

export type Authorization =
  | { outcome: "allow"; appId: string; environment: Environment }
  /** The key is good but its app is disabled. */
  | { outcome: "deny"; appId: string }
  /** Missing, malformed, unknown, revoked, expired or of the other environment. */
  | { outcome: "unauthorized" };

/** Decides what an API key may do, with at most one read of the apps table. */
export async function authorize(
  deps: { apps: AppStore; environment: Environment },
  apiKey: string | undefined,
): Promise<Authorization> {
  if (!apiKey || keyEnvironment(apiKey) !== deps.environment) return { outcome: "unauthorized" };
  const key = await deps.apps.getKey(hashApiKey(apiKey));
  const now = isoSeconds(nowSeconds());
  if (!key || key.environment !== deps.environment || key.revoked_at || (key.expires_at && key.expires_at <= now)) {
    return { outcome: "unauthorized" };
  }
  if (key.app_status !== "active") return { outcome: "deny", appId: key.key_app_id };
  return { outcome: "allow", appId: key.key_app_id, environment: key.environment };
}
