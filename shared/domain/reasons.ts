/**
 * Every `reason_code` a verification can carry, with the sentence the resource shows beside it.
 * A client branches on the code; the message is for people and may be reworded.
 */
import { ruleFindings, ruleReasonMessages } from "./document-types.ts";
import { TYPE_FACTS } from "./type-facts.ts";

/** The reasons every type shares; each type rule's reason comes from the registry, through its facts. */
const SHARED_REASON_MESSAGES = {
  // While nothing is decided yet.
  awaiting_upload: "Upload the document, then confirm the upload",
  processing: "The document is being checked",
  // In review: why a person must decide.
  issuer_unavailable: "The issuer could not be asked for its copy of the document; a reviewer will decide",
  fields_incomplete: "The document's keys or the issuer's copy lack what the decision needs; a reviewer will decide",
  original_pdf_not_provided: "A photo was sent instead of the original PDF; a reviewer will decide",
  review_requested: "The sandbox reference asked for a review; it is decided in a few seconds",
  // Decisions.
  verified: "The issuer confirmed the document and every check passed",
  barcode_missing: "The PDF carries no barcode number and identity number to ask the issuer about",
  document_not_found_at_issuer: "The issuer has no document with this barcode for this person",
  document_altered: "The document differs from the issuer's copy",
  document_too_old: "The issuer's copy was issued longer ago than this verification accepts",
  subject_mismatch: "The document is about someone other than the expected subject",
  not_genuine: "A reviewer found the document not genuine",
  original_pdf_required:
    "Send the original PDF from e-Devlet: a photo or scan cannot be compared with the issuer's copy",
  other: "A reviewer rejected the document",
  review_timeout: "Nobody could decide within the review window",
  // The file could not be processed (`failed`).
  document_missing: "No document was stored for this verification",
  file_size_mismatch: "The stored document's size differs from the declared size",
  unsupported_file_type: "The document is not a file type this document type accepts",
  document_unreadable: "The document could not be read: it is damaged, encrypted or too large to decode",
  // The upload deadline passed.
  expired: "No document was confirmed before the upload deadline",
} as const;

export const REASON_MESSAGES = {
  ...SHARED_REASON_MESSAGES,
  ...ruleReasonMessages(TYPE_FACTS),
};

export type ReasonCode = keyof typeof REASON_MESSAGES;

/**
 * What comparing the upload with the issuer's copy notes, in `fraud_signals`: its text differs
 * (the reason it was rejected), the same text in another file, or an image that could not be
 * compared.
 */
export const FRAUD_SIGNALS = ["document_altered", "not_original_file", "upload_not_compared"] as const;
export type FraudSignal = (typeof FRAUD_SIGNALS)[number];

/** Why a verification waits for a person. */
export const REVIEW_REASONS = [
  "issuer_unavailable",
  "fields_incomplete",
  "original_pdf_not_provided",
  "review_requested",
] as const satisfies readonly ReasonCode[];
export type ReviewReason = (typeof REVIEW_REASONS)[number];

export function reasonMessage(code: string): string {
  return code in REASON_MESSAGES ? REASON_MESSAGES[code as ReasonCode] : code.replaceAll("_", " ");
}

/** What a verification holds of how its outcome was reached: all of it kept after erasure. */
export interface DecisionFacts {
  /** The reviewer who decided (staff see the name; the customer is told only that a reviewer decided). */
  decided_by?: string;
  /** Why it waited for a person, which says what the reviewer had of the issuer's copy. */
  review_reason?: ReviewReason;
  review_required_at?: string;
  /** The sandbox reference prefix that forced the outcome, so no check ran. */
  sandbox_prefix?: string;
}

/** What a reviewer found, by the code they chose. */
const REVIEWER_FINDINGS: Partial<Record<ReasonCode, string>> = {
  verified: "verified the document",
  document_altered: "found the document altered",
  not_genuine: "found the document not genuine",
  subject_mismatch: "found the document about someone other than the expected subject",
  document_too_old: "found the document issued too long ago",
  original_pdf_required: "asked for the original PDF from e-Devlet",
  ...ruleFindings(TYPE_FACTS),
  document_unreadable: "could not read the document",
  other: "rejected the document",
};

/** Whether the issuer's copy was compared before the reviewer decided, by why the verification went to review. */
const ISSUER_COMPARISON: Record<ReviewReason, string> = {
  fields_incomplete: "the document's keys or the issuer's copy lacked what the checks need",
  issuer_unavailable: "the issuer's copy was not compared, as the issuer could not be asked for it",
  original_pdf_not_provided: "the issuer's copy was not compared, as a photo was sent instead of the PDF",
  review_requested: "the issuer's copy was not compared and no check ran, as the sandbox reference asked for a review",
};

/**
 * The sentence a completed or failed verification shows for `code`, saying who decided: a
 * reviewer (and whether the issuer's copy was compared), the sandbox's reference prefix (no
 * check ran), or the checks themselves.
 */
export function decisionMessage(code: string, facts: DecisionFacts): string {
  if (facts.decided_by !== undefined) {
    const finding = REVIEWER_FINDINGS[code as ReasonCode] ?? `decided ${code.replaceAll("_", " ")}`;
    return `A reviewer ${finding}; ${ISSUER_COMPARISON[facts.review_reason ?? "issuer_unavailable"]}`;
  }
  // A forced review that nobody decided in time ended as any review window does.
  if (code === "review_timeout" && facts.review_required_at !== undefined) return REASON_MESSAGES.review_timeout;
  if (facts.sandbox_prefix !== undefined) {
    return `The sandbox reference prefix ${facts.sandbox_prefix} forced this outcome: no check ran and nobody reviewed the document`;
  }
  return reasonMessage(code);
}

/** What a verification still processing says while an issuer that did not answer is asked again. */
export function retryingMessage(until: string): string {
  return `The document is being checked; the issuer did not answer and is asked again until ${until}, then a reviewer decides`;
}
