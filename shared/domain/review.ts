/**
 * The rules of a person's review: who may decide (the holder of a short claim), what a
 * decision says, and what staff see of a verification beside what its customer sees.
 */
import { DOCUMENT_TYPE_CODES } from "./document-types.ts";
import { ID_PATTERNS } from "./ids.ts";
import { cursorSchema, limitSchema } from "./lists.ts";
import type { ReasonCode } from "./reasons.ts";
import { addSeconds, isoSeconds } from "./time.ts";
import type { VerificationItem } from "./verification.ts";
import { verificationResourceSchema } from "./verification-resource.ts";
import * as z from "./zod.ts";

/** How long a claim holds: long enough to read two documents, short enough that a claim left open does not block the queue. */
export const CLAIM_SECONDS = 15 * 60;

/** Why a reviewer rejects a document. */
export const REJECTION_CODES = [
  "document_altered",
  "not_genuine",
  "subject_mismatch",
  "student_not_active",
  "student_not_accommodated",
  "document_unreadable",
  "other",
] as const satisfies readonly ReasonCode[];

export const MAX_NOTE_LENGTH = 1000;

/** A document link is a credential of its own: a minute is enough to open it. */
export const DOCUMENT_LINK_SECONDS = 60;

const timestamp = z.iso.datetime();

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

export const claimSchema = z
  .strictObject({
    claimed_by: z.string().check(z.describe("The staff username holding the claim")),
    expires_at: timestamp.check(z.describe("When the claim lapses unless its holder renews it")),
  })
  .check(z.describe("Who may decide the review now"));

export const claimResponseSchema = z
  .strictObject({ verification_id: z.string().check(z.regex(ID_PATTERNS.verification)), ...claimSchema.shape })
  .check(z.describe("The caller's claim on a review"));

export const reviewEntrySchema = z
  .strictObject({
    verification_id: z.string().check(z.regex(ID_PATTERNS.verification)),
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    document_type: z.enum(DOCUMENT_TYPE_CODES),
    reason_code: z.string().check(z.describe("Why a person must decide")),
    message: z.string(),
    waiting_since: timestamp.check(z.describe("When the verification went to review")),
    review_deadline: timestamp.check(z.describe("When the review window closes (`inconclusive`, `review_timeout`)")),
    claim: z.nullable(claimSchema),
  })
  .check(z.describe("A verification waiting for a reviewer"));
export type ReviewEntry = z.infer<typeof reviewEntrySchema>;

/** A verification as staff see it: the customer's resource, its app, its claim, its decision and which copies exist. */
export const staffVerificationSchema = z
  .extend(verificationResourceSchema, {
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    copies: z
      .strictObject({
        upload: z.boolean().check(z.describe("The document as uploaded and pinned at confirm")),
        issuer: z.boolean().check(z.describe("The issuer's copy fetched by the checks")),
      })
      .check(z.describe("Which copies `GET .../document?copy=` can show")),
    claim: z.nullable(claimSchema),
    decision: z
      .nullable(z.strictObject({ decided_by: z.string(), note: z.nullable(z.string()) }))
      .check(z.describe("The reviewer's decision, when a person decided")),
  })
  .check(z.describe("A verification with what staff need to review it"));
export type StaffVerification = z.infer<typeof staffVerificationSchema>;

/** The claim an item carries at `now`, or null when nobody holds one. */
export function currentClaim(item: VerificationItem, now: string): z.infer<typeof claimSchema> | null {
  if (item.status !== "in_review" || !item.claimed_by || !item.claim_expires_at || item.claim_expires_at <= now) {
    return null;
  }
  return { claimed_by: item.claimed_by, expires_at: item.claim_expires_at };
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
export const reviewsQuerySchema = z.strictObject({ limit: limitSchema, cursor: z.optional(cursorSchema) });

export const DOCUMENT_COPIES = ["upload", "issuer"] as const;
export type DocumentCopy = (typeof DOCUMENT_COPIES)[number];

/** GET /backoffice/v1/verifications/{verification_id}/document */
export const documentQuerySchema = z.strictObject({
  copy: z.enum(DOCUMENT_COPIES).check(z.describe("`upload`: the document as confirmed; `issuer`: the issuer's copy")),
});

/** GET /backoffice/v1/audit */
export const auditQuerySchema = z.strictObject({
  verification_id: z
    .optional(z.string().check(z.regex(ID_PATTERNS.verification)))
    .check(z.describe("One verification's records")),
  actor: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(z.describe("One actor's records, by `actor.sub`")),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
});

/** Where a page of the review queue ended: the last entry's deadline and id (the index's sort order). */
export const reviewPositionSchema = z.strictObject({
  deadline: z.iso.datetime(),
  id: z.string().check(z.regex(ID_PATTERNS.verification)),
});
