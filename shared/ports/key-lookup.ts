import type { KeyItem } from "../domain/apps.ts";

/** API keys as the authorizer reads them: one read for the decision, one write a minute at most. */
export interface KeyLookup {
  /** The key with this SHA-256, as the authorizer reads it: one read. */
  getKey(keyHash: string): Promise<KeyItem | undefined>;
  /**
   * Records that the key with this SHA-256 passed at `at`, only while its recorded use is at or before
   * `staleBefore` (or none): false, writing nothing, when another request recorded it since.
   */
  recordKeyUse(keyHash: string, at: string, staleBefore: string): Promise<boolean>;
}
