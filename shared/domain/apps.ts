import type { Environment } from "./environments.ts";
import { addSeconds, isoSeconds } from "./time.ts";

export type AppStatus = "active" | "disabled";

/** A client app. */
export interface AppItem {
  kind: "app";
  app_id: string;
  name: string;
  environment: Environment;
  status: AppStatus;
  /** The organisation that owns the app and sees it in the portal; none for an app only operators manage. */
  organization_id?: string;
  webhook_url?: string;
  /** Sealed (ports/sealer.ts): never in plain text. */
  webhook_secret_sealed: string;
  /** The secret before the last rotation, still signed with until its expiry. Sealed. */
  previous_webhook_secret_sealed?: string;
  previous_webhook_secret_expires_at?: string;
  /**
   * The hashes of the app's keys that may still pass (pruned of revoked and expired ones), read
   * consistently; a listing of an app's keys is eventually consistent, so rules are not decided on it.
   */
  key_hashes: string[];
  /**
   * Grows with every change to `key_hashes`. Key changes and status changes each condition on
   * what the other writes, so neither can miss the other.
   */
  key_version: number;
  created_at: string;
  updated_at: string;
}

/**
 * One API key, named by its hash. It carries its app's status and environment, so the authorizer
 * decides with a single read.
 */
export interface KeyItem {
  /** The SHA-256 of the key (`credentials.ts`: `hashApiKey`): the key itself is never kept. */
  key_hash: string;
  kind: "key";
  key_app_id: string;
  environment: Environment;
  prefix: string;
  app_status: AppStatus;
  /** What people call it (set at creation or rotation, changeable); none for keys made before names. */
  name?: string;
  created_at: string;
  expires_at?: string;
  revoked_at?: string;
  /** When the authorizer last let it pass, to within `KEY_USE_RESOLUTION_SECONDS`. */
  last_used_at?: string;
}

/**
 * The id the portal names a key by: from its hash, so every key has one without storing it,
 * and nothing of the key can be learnt from it (80 bits of a SHA-256 of 256 random bits).
 */
export function keyIdOf(key: Pick<KeyItem, "key_hash">): string {
  return `key_${key.key_hash.slice(0, 20)}`;
}

/** How fine `last_used_at` is: the authorizer writes it at most this often per key. */
export const KEY_USE_RESOLUTION_SECONDS = 60;

/**
 * The time before which a key's recorded use is too old and is written again at `now`: the
 * authorizer writes only when the key it read says so, so a busy key costs one write a minute.
 */
export function keyUseStaleBefore(now: Date): string {
  return isoSeconds(addSeconds(now, -KEY_USE_RESOLUTION_SECONDS));
}

/** True when the key item read says its use is worth recording at `now`. */
export function keyUseIsStale(key: Pick<KeyItem, "last_used_at">, now: Date): boolean {
  return key.last_used_at === undefined || key.last_used_at <= keyUseStaleBefore(now);
}

/** True while a key may still pass: not revoked and not past its expiry. */
export function isLiveKey(key: KeyItem, now: string): boolean {
  return !key.revoked_at && !(key.expires_at && key.expires_at <= now);
}

/**
 * The name of an app's own request bucket (its usage-plan key in API Gateway), which the
 * authorizer returns for every request of the app. Derived from the app id, so the authorizer
 * needs no read to find it. It is no secret and grants nothing: the API takes it only from the
 * authorizer, never from a request. API Gateway wants 20 to 128 letters and digits.
 */
export function usageIdentifier(appId: string): string {
  return `usage${appId.replace(/[^0-9A-Za-z]/g, "")}`;
}
