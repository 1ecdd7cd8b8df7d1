/**
 * The rules of a person's review: who may decide (the holder of a short claim), what a
 * decision says, and what staff see of a verification beside what its customer sees.
 */
import { DOCUMENT_TYPE_CODES, type DocumentType, rulesOf, type TypeList } from "./document-types.ts";
import { ID_PATTERNS } from "./ids.ts";
import { recheckAllowedFrom, recheckUnderWay } from "./issuer.ts";
import { cursorSchema, limitSchema } from "./lists.ts";
import { REVIEW_REASONS, type ReviewReason } from "./reasons.ts";
import type { Claim, IssuerRecheck } from "./responses/review.ts";
import { addSeconds, isoSeconds } from "./time.ts";
import { TYPE_FACTS } from "./type-facts.ts";
import type { VerificationItem } from "./verification.ts";
import * as z from "./zod.ts";

/** How long a claim holds: long enough to read two documents, short enough that a claim left open does not block the queue. */
export const CLAIM_SECONDS = 15 * 60;

/** Why a reviewer rejects a document. */
export const REJECTION_CODES = rejectionCodes(TYPE_FACTS);

/** Why a reviewer may reject a document of `types`: the shared reasons and each type rule's reason. */
export function rejectionCodes<L extends TypeList>(
  types: L,
): [
  "document_altered",
  "not_genuine",
  "subject_mismatch",
  "document_too_old",
  "original_pdf_required",
  ...NonNullable<L[number]["rule"]>["reasonCode"][],
  "document_unreadable",
  "other",
] {
  return [
    "document_altered",
    "not_genuine",
    "subject_mismatch",
    "document_too_old",
    // A photo was sent: the reviewer asks for the e-Devlet PDF, which the checks can compare.
    "original_pdf_required",
    ...rulesOf(types).map((rule) => rule.reasonCode),
    "document_unreadable",
    "other",
  ];
}

export const MAX_NOTE_LENGTH = 1000;

/** A document link is a credential of its own: a minute is enough to open it. */
export const DOCUMENT_LINK_SECONDS = 60;

export const reviewDecisionSchema = z
  .strictObject({
    result: z.enum(["verified", "rejected"]).check(z.describe("What the reviewer found")),
    reason_code: z
      .optional(z.enum(REJECTION_CODES))
      .check(z.describe("Why the document is rejected: required with `rejected`, absent with `verified`")),
    note: z
      .optional(z.string().check(z.maxLength(MAX_NOTE_LENGTH)))
      .check(z.describe("For staff only: never shown to the customer")),
  })
  .check(
    z.superRefine((decision, context) => {
      if (decision.result === "rejected" && decision.reason_code === undefined) {
        context.addIssue({
          code: "custom",
          path: ["reason_code"],
          message: "reason_code is required with a rejection",
          params: { code: "required" },
        });
      }
      if (decision.result === "verified" && decision.reason_code !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["reason_code"],
          message: "reason_code names why a document is rejected: leave it out with verified",
          params: { code: "not_allowed" },
        });
      }
    }),
    z.describe("A reviewer's decision"),
  );
export type ReviewDecisionBody = z.infer<typeof reviewDecisionSchema>;

/** The claim an item carries at `now`, or null when nobody holds one. */
export function currentClaim(item: VerificationItem, now: string): Claim | null {
  if (item.status !== "in_review" || !item.claimed_by || !item.claim_expires_at || item.claim_expires_at <= now) {
    return null;
  }
  return { claimed_by: item.claimed_by, expires_at: item.claim_expires_at };
}

/**
 * Asking the issuer again, as staff see it: for a verification in review because the issuer gave
 * no answer after it was asked; null for any other.
 */
export function issuerRecheckOf(item: VerificationItem, now: string): IssuerRecheck | null {
  const state = item.issuer;
  if (item.status !== "in_review" || item.review_reason !== "issuer_unavailable" || !state) return null;
  const allowed = recheckAllowedFrom(state);
  return {
    asked_at: state.recheck?.at ?? null,
    asked_by: state.recheck?.by ?? null,
    // A lookup lost on its way is no longer awaited once the issuer may be asked again.
    under_way: recheckUnderWay(state) && allowed !== undefined && allowed > now,
    allowed_from: allowed ?? item.review_required_at ?? item.updated_at,
  };
}

export function claimExpiry(now: Date): string {
  return isoSeconds(addSeconds(now, CLAIM_SECONDS));
}

/** `If-Match: "<sequence>"` (a strong entity tag, as the backoffice GET sends in ETag) -> the sequence. */
export function parseIfMatch(value: string): number | undefined {
  const match = /^\s*"(\d{1,15})"\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** GET /backoffice/v1/reviews */
export const reviewsQuerySchema = z.strictObject({
  document_type: z.optional(z.enum(DOCUMENT_TYPE_CODES)).check(z.describe("Only verifications of this document type")),
  reason_code: z
    .optional(z.enum(REVIEW_REASONS))
    .check(z.describe("Only verifications waiting for this reason (the entry's `reason_code`)")),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
});

/** Which of the verifications in review the queue shows: all, or those of one type, one reason, or both. */
export interface ReviewFilter {
  documentType?: DocumentType;
  reason?: ReviewReason;
}

export const DOCUMENT_COPIES = ["upload", "issuer"] as const;
export type DocumentCopy = (typeof DOCUMENT_COPIES)[number];

/** GET /backoffice/v1/verifications/{verification_id}/document */
export const documentQuerySchema = z.strictObject({
  copy: z.enum(DOCUMENT_COPIES).check(z.describe("`upload`: the document as confirmed; `issuer`: the issuer's copy")),
});

/**
 * Where a page of the review queue ended: the last entry's deadline and id (the index's sort
 * order), as the store keeps them (a deadline in whole seconds, UTC), and the filters the page
 * was read with.
 */
export const reviewPositionSchema = z.strictObject({
  deadline: z.iso.datetime({ precision: 0 }),
  id: z.string().check(z.regex(ID_PATTERNS.verification)),
  document_type: z.optional(z.enum(DOCUMENT_TYPE_CODES)),
  reason_code: z.optional(z.enum(REVIEW_REASONS)),
});

/**
 * A position of the review queue whose deadline falls on a UTC day from `earliest` to `latest`
 * (`YYYY-MM-DD`, both included), the days the queue reads now, read with `filter`: any other
 * names no entry of this queue.
 */
export function reviewPositionBetween(earliest: string, latest: string, filter: ReviewFilter) {
  return reviewPositionSchema.check(
    z.refine((position) => {
      const day = position.deadline.slice(0, 10);
      return (
        day >= earliest &&
        day <= latest &&
        position.document_type === filter.documentType &&
        position.reason_code === filter.reason
      );
    }),
  );
}
