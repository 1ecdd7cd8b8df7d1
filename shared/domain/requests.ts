import type { FieldError } from "./errors.ts";
import type { StatusClass } from "./portal.ts";

/**
 * The public API's request log: what a developer can look up by the `request_id` every answer
 * carries (its `Request-Id` header, and the problem body of an error). A request is kept when it
 * changed something or was refused; a read that succeeded is not (it is the commonest request
 * and its answer is all there is to it).
 */

/** How long a request is kept: as long as the events it may have caused. */
export const KEEP_REQUESTS_DAYS = 30;

/** The most invalid fields one kept request holds (a body may name hundreds of unknown fields). */
export const MAX_KEPT_ERRORS = 20;

/** One invalid field of a refused request, as the log keeps it: where and why, not what was sent (its message may quote it). */
export type KeptFieldError = Omit<FieldError, "message">;

/** One request of an app, as it was answered. */
export interface RequestRecord {
  request_id: string;
  app_id: string;
  method: string;
  /** The path as sent, without its query. */
  path: string;
  status: number;
  /** The problem's code, for a refused request. */
  code?: string;
  /** A refusal's invalid fields: each one's path and code, never its value. */
  errors?: KeptFieldError[];
  /** The verification it created or was about. */
  verification_id?: string;
  at: string;
}

/**
 * A request whose record the change it makes may carry into the log, in that change's own write
 * (one request to storage, not two). The record is what the request is answered if the change
 * succeeds; the log keeps the answer actually given either way.
 */
export interface RequestToKeep {
  /** The request's record, answered as a success about `verificationId`. */
  recordOf(verificationId: string): RequestRecord;
  /** The change carrying `record` was written: the log holds it already. */
  kept(record: RequestRecord): void;
}

/** True for a request the log keeps: one that could change something, or any the API refused. */
export function worthKeeping(method: string, status: number): boolean {
  return method !== "GET" || status >= 400;
}

/** The statuses of `statusClass`, first and last. */
export function statusesOf(statusClass: StatusClass): { from: number; to: number } {
  const from = Number(statusClass[0]) * 100;
  return { from, to: from + 99 };
}

/** Where a page of an app's requests ended, as the log hands it out: opaque to everyone else. */
export type RequestPosition = string;

/** Which requests of an app a page of the log holds: those answered within a time range, of one status class. */
export interface RequestFilter {
  since: string;
  until?: string;
  statusClass?: StatusClass;
}
