import type { RecordedKeys } from "./certificates/keys.ts";
import type { TextDifferences } from "./document-content.ts";
import type { extractedSchema } from "./document-layouts.ts";
import type { DocumentType } from "./document-types.ts";
import type { Environment } from "./environments.ts";
import { type IssuerState, isRetrying } from "./issuer.ts";
import { decisionMessage, type ReviewReason, reasonMessage, retryingMessage } from "./reasons.ts";
import type { Check, Reason, UploadInstructions, VerificationResource } from "./responses/verification.ts";
import { type Result, type Status, visibleStatus } from "./state.ts";
import type * as z from "./zod.ts";

/** Where each verification's document lives in the uploads bucket. */
export function documentKey(verificationId: string): string {
  return `documents/${verificationId}`;
}

/** The keys of a verification created without a file; the identity number never in clear. */
export interface SubmittedKeys {
  barcode: string;
  identity_number_sealed?: string;
}

/** A verification as stored in the verifications table. */
export interface VerificationItem {
  verification_id: string;
  app_id: string;
  environment: Environment;
  status: Status;
  result?: Result;
  document_type: DocumentType;
  process_type: "async" | "sync";
  external_reference_id?: string;
  /** Absent once the verification is erased, and for a verification by `submitted_keys`. */
  original_filename?: string;
  /** The declared upload's size and type; absent for a verification by `submitted_keys` (no upload). */
  file_size_bytes?: number;
  media_type?: string;
  object_key: string;
  upload_deadline: string;
  checks: StoredCheck[];
  reasons: Reason[];
  failure_code?: string;
  sequence: number;
  created_at: string;
  updated_at: string;
  completed_at?: string;
  /** As sent on create. */
  metadata?: Record<string, string>;
  /**
   * Who the customer expects the document to be about; never shown back. The identity number
   * only as its keyed digest (`SubjectDigest`), removed when the decision is written.
   */
  expected_subject?: { full_name?: string; birth_date?: string; identity_number_digest?: string };
  /**
   * The keys sent on create instead of a file (`document_keys`): the barcode, and the identity
   * number sealed (`Sealer`, the verification as context) until the issuer answers, then removed.
   */
  submitted_keys?: SubmittedKeys;
  /** The oldest the document may be, in days from its issue date to the decision (`max_document_age_days`). */
  max_document_age_days?: number;
  /** Fields read from the issuer's copy, once the issuer confirmed the document. */
  extracted?: Extracted;
  fraud_signals?: string[];
  /** The lines the upload and the issuer's copy do not share, when their text differs; staff only. */
  text_differences?: TextDifferences;
  /** Where the issuer's copy is kept for review, beside the upload. */
  issuer_copy_key?: string;
  /** The barcode and the masked identity number the checks read, kept with their decision for reviewers; staff only. */
  document_keys?: RecordedKeys;
  /** What the issuer lookups have come to: attempts, retries, the answer. Never the identity number. */
  issuer?: IssuerState;
  /** Why a person must decide, while (and after) the verification is in review. */
  review_reason?: ReviewReason;
  review_required_at?: string;
  /** When the review window closes. */
  review_deadline?: string;
  review_decided_at?: string;
  /** The staff member holding the review's claim, until `claim_expires_at`. */
  claimed_by_sub?: string;
  claimed_by?: string;
  claim_expires_at?: string;
  /** Who decided the review, and their note; staff only. */
  decided_by?: string;
  decision_note?: string;
  /** The sandbox reference prefix that forced the outcome (it names nobody, so erasure keeps it). */
  sandbox_prefix?: string;
  /** When the verification was erased; from then on it holds nothing about the person. */
  redacted_at?: string;
}

/**
 * What erasure removes from a stored verification: everything that is or may describe the
 * person (the copies' storage keys go with the objects, the barcode and masked identity number
 * read from the document with them; checks are emptied, as their details name what was read).
 * Ids, status, result, reasons, sizes and times remain.
 */
export const ERASED_ATTRIBUTES = [
  "external_reference_id",
  "original_filename",
  "metadata",
  "expected_subject",
  "extracted",
  "fraud_signals",
  "issuer_copy_key",
  "document_keys",
  "text_differences",
  "submitted_keys",
  "decision_note",
] as const satisfies readonly (keyof VerificationItem)[];

/**
 * What a verification's decision removes: the expected identity number's digest (the whole
 * expected subject when that was all of it: no empty map is stored), and a submitted identity
 * number still sealed (the issuer was never asked, or gave no answer).
 */
export function personalKeysForgotten(item: VerificationItem): {
  set: Pick<VerificationItem, "expected_subject" | "submitted_keys">;
  remove: ("expected_subject" | "submitted_keys")[];
} {
  const { expected_subject: expected, submitted_keys: submitted } = item;
  const { identity_number_digest: digest, ...subject } = expected ?? {};
  const kept = Object.keys(subject).length > 0;
  return {
    set: {
      ...(digest !== undefined && kept ? { expected_subject: subject } : {}),
      ...(submitted?.identity_number_sealed === undefined ? {} : { submitted_keys: { barcode: submitted.barcode } }),
    },
    remove: digest !== undefined && !kept ? ["expected_subject"] : [],
  };
}

/**
 * A check as stored: no parameters kept when it has none, and one recorded before checks carried
 * a code has its sentence only.
 */
export type StoredCheck = Omit<Check, "detail_code" | "detail_params"> & Partial<Check>;

/** A stored check as the resource shows it: every check with its parameters; one without a code is `unrecorded`, its sentence all there is. */
export function shownCheck(check: StoredCheck): Check {
  return { detail_code: "unrecorded", detail_params: {}, ...check };
}

/**
 * The resource as an erased verification shows it: what `ERASED_ATTRIBUTES` leaves, and no
 * checks. Any object shaped like the resource will do, so a body recorded by an older version
 * (without a field added since) is erased as well.
 */
export function erasedResource<R extends object>(resource: R, redactedAt: string): R {
  return {
    ...resource,
    external_reference_id: null,
    original_filename: null,
    metadata: {},
    extracted: null,
    fraud_signals: [],
    checks: [],
    redacted_at: redactedAt,
  };
}

export type Extracted = z.infer<typeof extractedSchema>;

/**
 * Where the document that was checked is kept: a copy made when the upload is confirmed, at a
 * key no upload URL names, so a second PUT with a still-valid URL changes nothing that was or
 * will be checked or reviewed.
 */
export function evidenceKey(verificationId: string): string {
  return `${documentKey(verificationId)}.evidence`;
}

/** Where the issuer's copy of a verification's document is kept. */
export function issuerCopyKey(verificationId: string): string {
  return `${documentKey(verificationId)}.issuer-copy`;
}

/** The one code that names where a verification stands. */
function reasonCode(item: VerificationItem, status: Status): string {
  switch (status) {
    case "awaiting_upload":
    case "processing":
    case "expired":
      return status;
    case "in_review":
      return item.review_reason ?? "issuer_unavailable";
    case "failed":
      return item.failure_code ?? "document_unreadable";
    case "completed":
      return item.reasons[0]?.code ?? "verified";
  }
}

/** The sentence beside the code: while the issuer is asked again, when, and once decided, who decided. */
function resourceMessage(item: VerificationItem, status: Status, code: string): string {
  if (status === "processing" && isRetrying(item.issuer)) return retryingMessage(item.issuer.retry_until);
  return status === "completed" || status === "failed" ? decisionMessage(code, item) : reasonMessage(code);
}

/**
 * What the client sees of a stored item at `now`. An upload still awaited past its deadline
 * reads `expired`, exactly as the expiry tick will write it: one change of state later.
 */
export function toResource(item: VerificationItem, now: string, upload?: UploadInstructions): VerificationResource {
  const status = visibleStatus(item.status, item.upload_deadline, now);
  const lazilyExpired = status !== item.status;
  const code = reasonCode(item, status);
  return {
    verification_id: item.verification_id,
    status,
    result: item.result ?? null,
    document_type: item.document_type,
    process_type: item.process_type,
    external_reference_id: item.external_reference_id ?? null,
    original_filename: item.original_filename ?? null,
    file_size_bytes: item.file_size_bytes ?? null,
    max_document_age_days: item.max_document_age_days ?? null,
    environment: item.environment,
    ...(status === "awaiting_upload" && upload ? { upload } : {}),
    upload_deadline: item.upload_deadline,
    checks: item.checks.map(shownCheck),
    reasons: item.reasons,
    failure_code: item.failure_code ?? null,
    sequence: lazilyExpired ? item.sequence + 1 : item.sequence,
    created_at: item.created_at,
    updated_at: lazilyExpired ? item.upload_deadline : item.updated_at,
    completed_at: item.completed_at ?? (lazilyExpired ? item.upload_deadline : null),
    metadata: item.metadata ?? {},
    reason_code: code,
    message: resourceMessage(item, status, code),
    extracted: item.extracted ?? null,
    fraud_signals: item.fraud_signals ?? [],
    review: item.review_required_at
      ? { required_at: item.review_required_at, decided_at: item.review_decided_at ?? null }
      : null,
    redacted_at: item.redacted_at ?? null,
  };
}

/** `sync`: upload-complete waits for the result; `async`: it answers at once. */
export const PROCESS_TYPES = ["async", "sync"] as const;
