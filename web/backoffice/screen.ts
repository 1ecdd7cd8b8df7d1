/** What every screen of the signed-in console gets, and what it gives back to the keyboard. */

import type { Announcer } from "../common/dom.ts";
import type { BackofficeApi } from "./api.ts";
import type { Claim } from "./wire.ts";

/** True while someone other than `username` holds `claim`: such an item is listed apart and never opened for the reviewer. */
export function heldByAnother(claim: Claim | null, username: string): boolean {
  return claim !== null && claim.claimed_by !== username && Date.parse(claim.expires_at) > Date.now();
}

export interface ConsoleContext {
  api: BackofficeApi;
  say: Announcer;
  /** Where the screen draws. */
  view: HTMLElement;
  /** The signed-in user's name: a claim held by this name is "you". */
  username(): string;
  /** True for an admin, who may read the audit trail. */
  admin(): boolean;
  /** Opens a verification; the address changes, so the browser's Back returns to the queue. */
  open(verificationId: string): void;
  /** Back to the queue, with what to say there (the last screen's messages are cleared). */
  back(message?: string): void;
  /**
   * After a decision on `decided`: the queue's oldest item nobody else holds opens in its place,
   * claimed, with `message` said; the queue itself when none waits.
   */
  next(message: string, decided: string): Promise<void>;
}

export interface Screen {
  /** Handles a shortcut key; true when it did. */
  key(event: KeyboardEvent): boolean;
  /** Stops the screen's timers when another takes its place. */
  leave(): void;
}
