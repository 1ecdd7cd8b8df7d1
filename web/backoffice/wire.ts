/**
 * The backoffice API as the console reads and writes it. Plain types, no DOM and no imports,
 * so the bundle carries none of the server's schemas; test/backoffice/console.test.ts checks
 * them against the domain's at compile time, so the two cannot drift.
 */

/** Why a reviewer rejects a document, in the order the form offers them. */
export const REJECTION_CODES = [
  "document_altered",
  "not_genuine",
  "subject_mismatch",
  "student_not_active",
  "student_not_accommodated",
  "document_unreadable",
  "other",
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export const MAX_NOTE_LENGTH = 1000;

export interface Claim {
  claimed_by: string;
  expires_at: string;
}

export interface ClaimResponse extends Claim {
  verification_id: string;
}

export interface ReviewEntry {
  verification_id: string;
  app_id: string;
  document_type: string;
  reason_code: string;
  message: string;
  waiting_since: string;
  review_deadline: string;
  claim: Claim | null;
}

/** Every list: a page of items and the cursor of the next page, null on the last. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface Check {
  name: string;
  outcome: "passed" | "failed" | "skipped";
  detail: string;
}

export interface StaffVerification {
  verification_id: string;
  app_id: string;
  status: string;
  result: string | null;
  document_type: string;
  external_reference_id: string | null;
  original_filename: string | null;
  file_size_bytes: number;
  created_at: string;
  checks: Check[];
  reasons: { code: string; message: string }[];
  reason_code: string;
  message: string;
  sequence: number;
  extracted: { schema: string; fields: Record<string, unknown> } | null;
  fraud_signals: string[];
  review: { required_at: string; decided_at: string | null } | null;
  copies: { upload: boolean; issuer: boolean };
  claim: Claim | null;
  decision: { decided_by: string; note: string | null } | null;
}

export type DocumentCopy = "upload" | "issuer";

/** `GET .../document?copy=` with `Accept: application/json`: a presigned link valid a minute. */
export interface DocumentLink {
  copy: DocumentCopy;
  url: string;
  expires_at: string;
  media_type: string;
}

export interface DecisionBody {
  result: "verified" | "rejected";
  reason_code?: RejectionCode;
  note?: string;
}
