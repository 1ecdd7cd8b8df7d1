import { BARCODE_PATTERN, isIdentityNumber } from "./certificates/keys.ts";
import {
  allowedExtensions,
  DOCUMENT_TYPE_CODES,
  DOCUMENT_TYPES,
  type DocumentType,
  fileTypeOfName,
  MAX_FILE_SIZE_BYTES,
} from "./document-types.ts";
import { PROCESS_TYPES } from "./verification.ts";
import * as z from "./zod.ts";

/** How long an Idempotency-Key of a create, and its first response, are kept. */
export const IDEMPOTENCY_SECONDS = 24 * 60 * 60;

const NO_CONTROL_CHARACTERS = /^[^\p{C}]*$/u;
const SAFE_FILENAME = /^[^/\\\p{C}]*$/u;

/** `metadata`: the customer's own labels, echoed in the resource and every webhook. */
export const METADATA_LIMITS = { keys: 20, keyPattern: /^[A-Za-z0-9_.-]{1,40}$/, valueLength: 500 } as const;

/** The longest `max_document_age_days`: ten years. */
export const MAX_DOCUMENT_AGE_DAYS = 3650;

/** A T.C. identity number: 11 digits with its checksum. The message never repeats the value. */
const identityNumberSchema = (field: string) =>
  z.string().check(
    z.refine((value) => isIdentityNumber(value), {
      error: `${field} must be 11 digits with a valid T.C. identity number checksum`,
      params: { code: "invalid_identity_number" },
    }),
  );

const documentKeysSchema = z
  .strictObject({
    barcode: z.string().check(
      z.regex(BARCODE_PATTERN, {
        error: "document_keys.barcode must be 8 to 40 upper-case letters, digits or hyphens",
      }),
      z.describe("The document's barcode number (`Barkod No`), as printed: 8 to 40 of `A-Z 0-9 -`"),
    ),
    identity_number: identityNumberSchema("document_keys.identity_number").check(
      z.describe(
        "The holder's T.C. identity number (11 digits with its checksum): sealed until e-Devlet answers, then deleted; never echoed",
      ),
    ),
  })
  .check(
    z.describe(
      "Instead of a file: the keys e-Devlet's barcode verification asks for. No upload; the verification is decided on the issuer's copy",
    ),
  );

const metadataSchema = z
  .record(z.string(), z.string().check(z.maxLength(METADATA_LIMITS.valueLength)))
  .check(
    z.describe(
      `Your own labels, echoed in the verification and every webhook: at most ${METADATA_LIMITS.keys} keys of 1 to 40 characters of \`A-Z a-z 0-9 _ . -\`, each value a string of at most ${METADATA_LIMITS.valueLength} characters`,
    ),
  );

const expectedSubjectSchema = z
  .strictObject({
    full_name: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.maxLength(200),
          z.regex(NO_CONTROL_CHARACTERS, { error: "expected_subject.full_name must not contain control characters" }),
        ),
    ),
    birth_date: z.optional(z.iso.date()).check(z.describe("`YYYY-MM-DD`")),
    identity_number: z
      .optional(identityNumberSchema("expected_subject.identity_number"))
      .check(
        z.describe(
          "11 digits with the T.C. checksum: compared with the number the document's keys carry; kept only as a keyed hash",
        ),
      ),
  })
  .check(
    z.describe(
      "Who you expect the document to be about: compared with the fields read from the issuer's copy, never echoed back",
    ),
  );

/** What a new verification is made of, with the rules its document type sets. */
export const newVerificationSchema = z
  .strictObject({
    document_type: z
      .enum(DOCUMENT_TYPE_CODES)
      .check(z.describe("The kind of document; it decides the file types allowed")),
    process_type: z
      ._default(z.enum(PROCESS_TYPES), "async")
      .check(z.describe("`sync`: upload-complete waits up to 25 s for the result; `async`: it answers at once")),
    external_reference_id: z
      .optional(
        z
          .string()
          .check(
            z.minLength(1),
            z.maxLength(128),
            z.regex(NO_CONTROL_CHARACTERS, { error: "external_reference_id must not contain control characters" }),
          ),
      )
      .check(z.describe("Your own reference for this document, returned as sent")),
    original_filename: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.maxLength(255),
          z.regex(SAFE_FILENAME, { error: "original_filename must not contain /, \\ or control characters" }),
          z.describe(
            "The file's name, with an extension its document type allows; required unless `document_keys` is given",
          ),
        ),
    ),
    file_size_bytes: z.optional(
      z
        .int()
        .check(
          z.gte(1),
          z.lte(MAX_FILE_SIZE_BYTES),
          z.describe(
            "The exact size of the file you will upload: the upload URL accepts only this size; required with `original_filename`",
          ),
        ),
    ),
    document_keys: z.optional(documentKeysSchema),
    max_document_age_days: z
      .optional(z.int().check(z.gte(1), z.lte(MAX_DOCUMENT_AGE_DAYS)))
      .check(
        z.describe(
          "The document's issue date, read from the issuer's copy, must be at most this many days before the decision",
        ),
      ),
    metadata: z.optional(metadataSchema),
    expected_subject: z.optional(expectedSubjectSchema),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.metadata) {
        const keys = Object.keys(body.metadata);
        if (keys.length > METADATA_LIMITS.keys) {
          ctx.addIssue({
            code: "custom",
            path: ["metadata"],
            params: { code: "too_many_keys" },
            message: `metadata has at most ${METADATA_LIMITS.keys} keys`,
          });
        }
        if (keys.some((key) => !METADATA_LIMITS.keyPattern.test(key))) {
          ctx.addIssue({
            code: "custom",
            path: ["metadata"],
            params: { code: "invalid_key" },
            message: "metadata keys are 1 to 40 characters of A-Z a-z 0-9 _ . -",
          });
        }
      }
      if (body.expected_subject && Object.keys(body.expected_subject).length === 0) {
        ctx.addIssue({
          code: "custom",
          path: ["expected_subject"],
          params: { code: "empty" },
          message: "expected_subject names full_name, birth_date, identity_number or several of them",
        });
      }
      // Zod may run this also when some fields already failed: check only what is still in question.
      const definition = DOCUMENT_TYPES[body.document_type] as (typeof DOCUMENT_TYPES)[DocumentType] | undefined;
      if (!definition || body.original_filename === undefined || body.file_size_bytes === undefined) return;
      const fileType = fileTypeOfName(body.original_filename);
      if (!fileType || !(definition.fileTypes as readonly string[]).includes(fileType)) {
        ctx.addIssue({
          code: "custom",
          path: ["original_filename"],
          params: { code: "extension_not_allowed" },
          message: `original_filename must end in one of ${allowedExtensions(body.document_type).join(", ")} for ${body.document_type}`,
        });
      }
      if (body.file_size_bytes > definition.maxFileSizeBytes && body.file_size_bytes <= MAX_FILE_SIZE_BYTES) {
        ctx.addIssue({
          code: "custom",
          path: ["file_size_bytes"],
          params: { code: "too_large" },
          message: `file_size_bytes must be at most ${definition.maxFileSizeBytes} for ${body.document_type}`,
        });
      }
    }),
    // A file or the keys, exactly one: said even when other fields failed, as a missing field is.
    z.superRefine(
      (body, ctx) => {
        const sent = body as Record<string, unknown>;
        const file = sent.original_filename !== undefined || sent.file_size_bytes !== undefined;
        if (file === (sent.document_keys !== undefined)) {
          const message = file
            ? "Send either document_keys or original_filename with file_size_bytes, not both"
            : "Send either document_keys or original_filename with file_size_bytes";
          for (const field of ["document_keys", "original_filename"]) {
            ctx.addIssue({ code: "custom", path: [field], params: { code: file ? "conflict" : "required" }, message });
          }
          return;
        }
        for (const [field, other] of [
          ["original_filename", "file_size_bytes"],
          ["file_size_bytes", "original_filename"],
        ] as const) {
          if (file && sent[field] === undefined) {
            ctx.addIssue({
              code: "custom",
              path: [field],
              params: { code: "required" },
              message: `${field} is required with ${other}`,
            });
          }
        }
      },
      { when: () => true },
    ),
  );

export type NewVerification = z.infer<typeof newVerificationSchema>;
