/**
 * What the backoffice API answers, as wire schemas: the queue's entries, a claim, a verification
 * as staff see it. For the OpenAPI document and the tests; no function builds them (`review.ts`
 * is the review's rules and what the API accepts).
 */

import { MAX_DIFFERING_LINES } from "../document-content.ts";
import { DOCUMENT_TYPE_CODES } from "../document-types.ts";
import { ID_PATTERNS } from "../ids.ts";
import { RECHECK_GAP_SECONDS } from "../issuer.ts";
import { listPageSchema } from "../lists.ts";
import { REVIEW_REASONS } from "../reasons.ts";
import * as z from "../zod.ts";
import { verificationResourceSchema } from "./verification.ts";

const timestamp = z.iso.datetime();

export const claimSchema = z
  .strictObject({
    claimed_by: z.string().check(z.describe("The staff username holding the claim")),
    expires_at: timestamp.check(z.describe("When the claim lapses unless its holder renews it")),
  })
  .check(z.describe("Who may decide the review now"));
export type Claim = z.infer<typeof claimSchema>;

export const claimResponseSchema = z
  .strictObject({ verification_id: z.string().check(z.regex(ID_PATTERNS.verification)), ...claimSchema.shape })
  .check(z.describe("The caller's claim on a review"));

export const reviewEntrySchema = z
  .strictObject({
    verification_id: z.string().check(z.regex(ID_PATTERNS.verification)),
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    app_name: z.string().check(z.describe("The app's name; its id when it has none or is gone")),
    document_type: z.enum(DOCUMENT_TYPE_CODES),
    reason_code: z.enum(REVIEW_REASONS).check(z.describe("Why a person must decide")),
    message: z.string(),
    waiting_since: timestamp.check(z.describe("When the verification went to review")),
    review_deadline: timestamp.check(z.describe("When the review window closes (`inconclusive`, `review_timeout`)")),
    claim: z.nullable(claimSchema),
  })
  .check(z.describe("A verification waiting for a reviewer"));
export type ReviewEntry = z.infer<typeof reviewEntrySchema>;

export const reviewPageSchema = z
  .extend(listPageSchema(reviewEntrySchema), {
    total: z
      .int()
      .check(
        z.gte(0),
        z.describe("How many verifications wait in review matching the filters, on every page (the queue's days)"),
      ),
  })
  .check(z.describe("One page of the review queue, and how many wait in all"));
export type ReviewPage = z.infer<typeof reviewPageSchema>;

export const issuerRecheckSchema = z
  .strictObject({
    asked_at: z
      .nullable(timestamp)
      .check(z.describe("When a reviewer last asked the issuer again; null when none has")),
    asked_by: z.nullable(z.string()).check(z.describe("The staff username who asked; null when none has")),
    under_way: z.boolean().check(z.describe("The issuer's answer to that asking is still awaited")),
    allowed_from: timestamp.check(
      z.describe(
        `From when the claim holder may ask again (${RECHECK_GAP_SECONDS / 60} minutes after the last asking; at once when past)`,
      ),
    ),
  })
  .check(
    z.describe(
      "Asking the issuer again, for a verification in review because the issuer gave no answer (`issuer_unavailable`) when it was asked; null for any other",
    ),
  );
export type IssuerRecheck = z.infer<typeof issuerRecheckSchema>;

/** A verification as staff see it: the customer's resource, its app, its claim, its decision and which copies exist. */
export const staffVerificationSchema = z
  .extend(verificationResourceSchema, {
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    app_name: z.string().check(z.describe("The app's name; its id when it has none or is gone")),
    copies: z
      .strictObject({
        upload: z.boolean().check(z.describe("The document as uploaded and pinned at confirm")),
        issuer: z.boolean().check(z.describe("The issuer's copy fetched by the checks")),
      })
      .check(z.describe("Which copies `GET .../document?copy=` can show")),
    claim: z.nullable(claimSchema),
    issuer_recheck: z.nullable(issuerRecheckSchema),
    decision: z
      .nullable(z.strictObject({ decided_by: z.string(), note: z.nullable(z.string()) }))
      .check(z.describe("The reviewer's decision, when a person decided")),
    document_keys: z
      .nullable(
        z.strictObject({
          barcode: z.nullable(z.string()).check(z.describe("The barcode number the checks read; null when none")),
          identity_number_masked: z
            .nullable(z.string().check(z.regex(/^[0-9]{2}\*{7}[0-9]{2}$/)))
            .check(
              z.describe(
                "The T.C. identity number the checks read, masked: its first two and last two digits; null when none",
              ),
            ),
        }),
      )
      .check(
        z.describe(
          "What the checks read from the document (its text or its QR code) for the issuer's lookup; null when they never looked (a verification processed before these were kept, or an outcome a sandbox prefix forced)",
        ),
      ),
    text_differences: z
      .nullable(
        z.strictObject({
          only_in_upload: z
            .array(z.string())
            .check(z.describe("Lines the upload prints and the issuer's copy does not")),
          only_in_issuer_copy: z
            .array(z.string())
            .check(z.describe("Lines the issuer's copy prints and the upload does not")),
        }),
      )
      .check(
        z.describe(
          `When the upload's text differs from the issuer's copy (\`document_altered\`): the lines one copy prints and the other does not, at most ${MAX_DIFFERING_LINES} of each, an 11-digit number in them masked; null otherwise`,
        ),
      ),
  })
  .check(z.describe("A verification with what staff need to review it"));
export type StaffVerification = z.infer<typeof staffVerificationSchema>;
