/**
 * What must still hold of a stored verification for a change to be written over it. A use case
 * decides on what it read; the store writes only if the verification is still as the guard says
 * at the moment of writing (the DynamoDB store compiles the guard into the write's condition;
 * the in-memory store, and a use case checking before it writes, evaluate it with `guardHolds`).
 * Each rule is written here once.
 */
import type { DocumentType } from "./document-types.ts";
import type { VerificationItem } from "./verification.ts";

export interface TransitionGuard {
  /** Nobody changed the verification since the caller read it at this sequence. */
  sequence?: number;
  /** The review's claim is held by this staff member (their sub), unexpired at the change's time. */
  claimHeldBy?: string;
  /**
   * A confirm's rule: the verification is this app's, its upload deadline after the change's
   * time, declared of exactly this size, and of a document type that accepts the upload.
   */
  upload?: { appId: string; size: number; documentTypes: readonly DocumentType[] };
  /** The upload deadline is at or before this time: an expiry. */
  deadlinePassedBy?: string;
}

/** Whether `item` meets `guard` at `now` (the change's time). */
export function guardHolds(item: VerificationItem, guard: TransitionGuard, now: string): boolean {
  const { sequence, claimHeldBy, upload, deadlinePassedBy } = guard;
  if (sequence !== undefined && item.sequence !== sequence) return false;
  if (
    claimHeldBy !== undefined &&
    !(item.claimed_by_sub === claimHeldBy && item.claim_expires_at !== undefined && item.claim_expires_at > now)
  ) {
    return false;
  }
  if (upload && uploadMismatch(item, upload, now) !== undefined) return false;
  return deadlinePassedBy === undefined || item.upload_deadline <= deadlinePassedBy;
}

/** Which part of a confirm's rule an upload fails, in the order a refusal names them. */
export type UploadMismatch = "app" | "deadline" | "size" | "type";

/** The first part of the confirm's rule (`TransitionGuard.upload`) that `item` fails at `now`; undefined when it meets it. */
export function uploadMismatch(
  item: VerificationItem,
  upload: NonNullable<TransitionGuard["upload"]>,
  now: string,
): UploadMismatch | undefined {
  if (item.app_id !== upload.appId) return "app";
  if (item.upload_deadline <= now) return "deadline";
  if (item.file_size_bytes !== upload.size) return "size";
  if (!upload.documentTypes.includes(item.document_type)) return "type";
  return undefined;
}
