/**
 * A verification as the public API shows it: the resource's wire schemas, one alone and a page
 * of them. For the OpenAPI documents and the tests; no function builds them (`verification.ts`
 * is the stored item and what the service shows of it).
 */

import { DETAIL_CODES } from "../check-details.ts";
import { extractedSchema } from "../document-layouts.ts";
import { DOCUMENT_TYPE_CODES } from "../document-types.ts";
import { ENVIRONMENTS } from "../environments.ts";
import { ID_PATTERNS } from "../ids.ts";
import { listPageSchema } from "../lists.ts";
import { RESULTS, STATUSES } from "../state.ts";
import { PROCESS_TYPES } from "../verification.ts";
import * as z from "../zod.ts";

const timestamp = z.iso.datetime();

export const checkSchema = z
  .strictObject({
    name: z.string().check(z.describe("What was checked, e.g. `size_matches`")),
    outcome: z.enum(["passed", "failed", "skipped"]),
    detail: z
      .string()
      .check(z.describe("A sentence a person can read, in English, written from `detail_code` and `detail_params`")),
    detail_code: z
      .enum(DETAIL_CODES)
      .check(
        z.describe(
          "What `detail` says, as a stable code: show it in your own words and language. `unrecorded`: a check recorded before checks carried a code, whose `detail` is all there is",
        ),
      ),
    detail_params: z
      .record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]))
      .check(
        z.describe(
          "The values `detail` names, by name (`bytes`, `barcode`, `days`, `fields`, ...); a code among them (`cause`, `reason`, `rule`) has its own words",
        ),
      ),
  })
  .check(z.describe("One check the service ran on the document"));
export type Check = z.infer<typeof checkSchema>;

export const reasonSchema = z
  .strictObject({ code: z.string().check(z.describe("Stable, machine-readable")), message: z.string() })
  .check(z.describe("Why the result is `rejected` or `inconclusive`"));
export type Reason = z.infer<typeof reasonSchema>;

export const uploadSchema = z
  .strictObject({
    method: z.literal("PUT"),
    url: z.url().check(z.describe("A presigned URL: send the file's bytes as the request body, with no API key")),
    headers: z
      .strictObject({ "Content-Type": z.string(), "Content-Length": z.string().check(z.regex(/^\d+$/)) })
      .check(z.describe("Send exactly these headers: the URL signs them, so another type or size is refused")),
    expires_at: timestamp.check(z.describe("When this URL stops working; fetch the verification for a fresh one")),
  })
  .check(z.describe("How to upload the document. Present only while `status` is `awaiting_upload`"));
export type UploadInstructions = z.infer<typeof uploadSchema>;

/**
 * A verification as the public API shows it. Described by registering, not by a check: `omit`
 * refuses an object that has checks, and the lists and webhooks omit `upload` from this one.
 */
export const verificationResourceSchema = z
  .strictObject({
    verification_id: z.string().check(z.regex(ID_PATTERNS.verification), z.describe("`ver_` and a ULID")),
    status: z
      .enum(STATUSES)
      .check(
        z.describe(
          "`awaiting_upload` -> `processing` -> `completed`, `failed` or `in_review`; `in_review` -> `completed` when a person decides or the review window passes; `awaiting_upload` -> `expired` after the upload deadline. `completed`, `failed` and `expired` never change",
        ),
      ),
    result: z.nullable(z.enum(RESULTS)).check(z.describe("Set when `status` is `completed`, otherwise null")),
    document_type: z.enum(DOCUMENT_TYPE_CODES),
    process_type: z.enum(PROCESS_TYPES),
    external_reference_id: z
      .nullable(z.string())
      .check(
        z.describe("Your reference, as sent on create; null when none was sent, or once the verification is erased"),
      ),
    original_filename: z
      .nullable(z.string())
      .check(
        z.describe(
          "As sent on create; null for a verification by `document_keys` (no file), and once the verification is erased",
        ),
      ),
    file_size_bytes: z
      .nullable(z.int().check(z.positive()))
      .check(z.describe("As sent on create; null for a verification by `document_keys` (no file)")),
    max_document_age_days: z
      .nullable(z.int().check(z.positive()))
      .check(
        z.describe(
          "As sent on create: the oldest the document may be, in days from its issue date to the decision; null when not sent",
        ),
      ),
    environment: z.enum(ENVIRONMENTS),
    upload: z.optional(uploadSchema),
    upload_deadline: timestamp.check(z.describe("Upload and confirm before this time, or the verification expires")),
    checks: z.array(checkSchema).check(z.describe("The checks run so far, in order")),
    reasons: z.array(reasonSchema).check(z.describe("Why the result is `rejected` or `inconclusive`; empty otherwise")),
    failure_code: z
      .nullable(z.string())
      .check(z.describe("Why the file could not be processed, when `status` is `failed`")),
    sequence: z
      .int()
      .check(
        z.positive(),
        z.describe("Grows by one at every change of state: keep the copy with the highest sequence"),
      ),
    created_at: timestamp,
    updated_at: timestamp,
    completed_at: z
      .nullable(timestamp)
      .check(
        z.describe(
          "When the verification reached its final state (`completed`, `failed`, or `expired` at its deadline); null before",
        ),
      ),
    metadata: z.record(z.string(), z.string()).check(z.describe("Your labels, as sent on create, or `{}`")),
    reason_code: z
      .string()
      .check(
        z.describe(
          "One stable code for the current state: `awaiting_upload`, `processing`, why it is `in_review`, the decision, the failure code, or `expired`",
        ),
      ),
    message: z.string().check(z.describe("The reason in one sentence a person can read")),
    extracted: z
      .nullable(extractedSchema)
      .check(z.describe("The fields read from the issuer's copy; null unless the issuer confirmed the document")),
    fraud_signals: z
      .array(z.string())
      .check(z.describe("Signs of forgery, such as `document_altered`; empty otherwise")),
    review: z
      .nullable(
        z.strictObject({
          required_at: timestamp.check(z.describe("When the verification went to review")),
          decided_at: z
            .nullable(timestamp)
            .check(z.describe("When it left review: a decision, or the review window passing")),
        }),
      )
      .check(z.describe("Set when the verification needed a person; no reviewer is named")),
    redacted_at: z
      .nullable(timestamp)
      .check(
        z.describe(
          "When the verification was erased (`DELETE`): its document, the issuer's copy, the checks' details, extracted fields, file name, reference and metadata are gone; ids, status, result, reasons and times remain. Null until then",
        ),
      ),
  })
  .register(z.globalRegistry, { description: "A verification of one document" });
export type VerificationResource = z.infer<typeof verificationResourceSchema>;

/** A verification as lists show it: the resource without upload instructions (fetch one for those). */
export const listedVerificationSchema = z
  .omit(verificationResourceSchema, { upload: true })
  .check(z.describe("A verification as lists show it: fetch it for upload instructions"));

export const verificationPageSchema = listPageSchema(listedVerificationSchema);
