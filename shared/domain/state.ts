import type { Environment } from "./environments.ts";
import { isoSeconds } from "./time.ts";

/**
 * The verification state machine: only the transitions the contract draws.
 *
 *   awaiting_upload --upload-complete--> processing --> completed | failed | in_review
 *   awaiting_upload --deadline---------> expired
 *   in_review --a decision, or the review window passing--> completed
 */

export const STATUSES = ["awaiting_upload", "processing", "in_review", "completed", "failed", "expired"] as const;
export type Status = (typeof STATUSES)[number];

export const RESULTS = ["verified", "rejected", "inconclusive"] as const;
export type Result = (typeof RESULTS)[number];

const TRANSITIONS: Record<Status, readonly Status[]> = {
  awaiting_upload: ["processing", "expired"],
  processing: ["completed", "failed", "in_review"],
  in_review: ["completed"],
  completed: [],
  failed: [],
  expired: [],
};

export const TERMINAL_STATUSES = STATUSES.filter((status) => TRANSITIONS[status].length === 0);

export function canTransition(from: Status, to: Status): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isTerminal(status: Status): boolean {
  return TRANSITIONS[status].length === 0;
}

/** Upload window after creation, and the lifetime of one presigned upload URL. */
export const UPLOAD_DEADLINE_SECONDS = 24 * 60 * 60;
export const UPLOAD_URL_SECONDS = 15 * 60;

/** How long a verification waits in review for a person before it ends `inconclusive`. */
export const REVIEW_WINDOW_SECONDS = { sandbox: 72 * 60 * 60, production: 72 * 60 * 60 } as const satisfies Record<
  Environment,
  number
>;

/** When the review window of a verification of `environment` that goes to review at `now` closes. */
export function reviewDeadline(environment: Environment, now: Date): string {
  return isoSeconds(new Date(now.getTime() + REVIEW_WINDOW_SECONDS[environment] * 1000));
}

/**
 * The status a client sees: an upload still awaited past its deadline reads `expired`,
 * even before the expiry tick has written it.
 */
export function visibleStatus(status: Status, uploadDeadline: string, now: string): Status {
  return status === "awaiting_upload" && uploadDeadline <= now ? "expired" : status;
}
