import { isLiveKey, keyUseIsStale, keyUseStaleBefore } from "../../domain/apps.ts";
import { hashApiKey, keyEnvironment } from "../../domain/credentials.ts";
import type { Environment } from "../../domain/environments.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { Clock } from "../../ports/clock.ts";
import type { KeyLookup } from "../../ports/key-lookup.ts";
import type { Log } from "../../ports/log.ts";

export type Authorization =
  | { outcome: "allow"; appId: string; environment: Environment }
  /** The key is good but its app is disabled. */
  | { outcome: "deny"; appId: string }
  /** Missing, malformed, unknown, revoked, expired or of the other environment. */
  | { outcome: "unauthorized" };

/**
 * Decides what an API key may do, with one read of the apps table. A key that passes has its
 * use recorded (`last_used_at`) only when the item read says the last record is a minute old or
 * more: one conditional write a minute per key at most, awaited (a write left running after the
 * answer would be frozen with the Lambda), never more than that. A failed record is logged and
 * does not change the answer.
 */
export async function authorize(
  deps: { apps: KeyLookup; environment: Environment; clock: Clock; log: Log },
  apiKey: string | undefined,
): Promise<Authorization> {
  if (!apiKey || keyEnvironment(apiKey) !== deps.environment) return { outcome: "unauthorized" };
  const key = await deps.apps.getKey(hashApiKey(apiKey));
  const at = deps.clock.now();
  const now = isoSeconds(at);
  if (!key || key.environment !== deps.environment || !isLiveKey(key, now)) {
    return { outcome: "unauthorized" };
  }
  if (key.app_status !== "active") return { outcome: "deny", appId: key.key_app_id };
  if (keyUseIsStale(key, at)) {
    try {
      await deps.apps.recordKeyUse(key.key_hash, now, keyUseStaleBefore(at));
    } catch (error) {
      deps.log.warn("key_use_not_recorded", { app_id: key.key_app_id, error });
    }
  }
  return { outcome: "allow", appId: key.key_app_id, environment: key.environment };
}
