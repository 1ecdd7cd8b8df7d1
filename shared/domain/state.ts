/**
 * The verification state machine: only the transitions the contract draws.
 *
 *   awaiting_upload --upload-complete--> processing --> completed | failed
 *   awaiting_upload --deadline---------> expired
 */

export const STATUSES = ["awaiting_upload", "processing", "completed", "failed", "expired"] as const;
export type Status = (typeof STATUSES)[number];

export const RESULTS = ["verified", "rejected", "inconclusive"] as const;
export type Result = (typeof RESULTS)[number];

const TRANSITIONS: Record<Status, readonly Status[]> = {
  awaiting_upload: ["processing", "expired"],
  processing: ["completed", "failed"],
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

/**
 * The status a client sees: an upload still awaited past its deadline reads `expired`,
 * even before the expiry tick has written it.
 */
export function visibleStatus(status: Status, uploadDeadline: string, now: string): Status {
  return status === "awaiting_upload" && uploadDeadline <= now ? "expired" : status;
}
