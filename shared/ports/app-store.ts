import type { AppItem, AppStatus, KeyItem } from "../domain/apps.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { KeyLookup } from "./key-lookup.ts";

/**
 * Where apps and their API keys are kept. A write that lost a race with another change to the
 * same app throws StaleAppError (domain/errors.ts): read again and decide again. A change made by
 * a person carries its audit record (`audit`): both are written, or neither.
 */
export interface AppStore extends KeyLookup {
  /**
   * An app and its first key, written together or not at all. An app of an organisation takes
   * one of its places in the same write: false, writing nothing, when the organisation owns
   * `appsPerOrganization` apps already.
   */
  createWithKey(
    app: AppItem,
    key: KeyItem,
    audit: AuditRecord | undefined,
    appsPerOrganization: number,
  ): Promise<boolean>;
  /** Read consistently. */
  getApp(appId: string): Promise<AppItem | undefined>;
  /** Every app, oldest first. */
  listApps(): Promise<AppItem[]>;
  /** Gives the key `keyHash` of `appId` a new name: false, writing nothing, when the app has no such key. */
  renameKey(appId: string, keyHash: string, name: string, audit?: AuditRecord): Promise<boolean>;
  /** Sets where the app's events go; `undefined` removes the destination (events are then kept, not sent). */
  setWebhookUrl(appId: string, url: string | undefined, now: string, audit?: AuditRecord): Promise<void>;
  /** Every key of the app, oldest first: for display, not for decisions (eventually consistent). */
  listKeys(appId: string): Promise<KeyItem[]>;
  /** The app's keys that may still pass, read consistently. */
  currentKeys(app: AppItem, now: string): Promise<KeyItem[]>;
  /**
   * Enables or disables an app and each of its live keys together, so the authorizer's single
   * read of a key sees the app's status. The app as it now is, or undefined when there is none.
   */
  setStatus(appId: string, status: AppStatus, now: string, audit?: AuditRecord): Promise<AppItem | undefined>;
  /**
   * Adds `key` to `app` and gives the keys in `expiring` their expiry, together, only while the
   * app keeps the status and key set it was read with. `keyHashes`: the app's new live keys.
   */
  addKey(
    app: AppItem,
    key: KeyItem,
    expiring: { key_hash: string; expires_at: string }[],
    keyHashes: string[],
    now: string,
    audit?: AuditRecord,
  ): Promise<void>;
  /** Revokes the keys `revoked` (hashes, a subset of the app's keys) at once; `keyHashes` is what remains. */
  revokeKeys(app: AppItem, revoked: string[], keyHashes: string[], now: string, audit?: AuditRecord): Promise<void>;
  /**
   * Replaces the webhook signing secret, keeping the one it replaces as the previous secret
   * until `previousExpiresAt`; holds only while the current secret is still `app`'s.
   */
  rotateWebhookSecret(
    app: AppItem,
    sealed: string,
    previousExpiresAt: string,
    now: string,
    audit?: AuditRecord,
  ): Promise<void>;
  /**
   * Replaces the app's sealed secrets with the same secrets sealed anew (`previous` only when
   * the app has one), while they are still those of `app`; `StaleAppError` otherwise.
   */
  resealSecrets(
    app: AppItem,
    sealed: { current: string; previous?: string },
    now: string,
    audit?: AuditRecord,
  ): Promise<void>;
}
