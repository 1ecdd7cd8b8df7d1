import { z } from "zod";
import {
  allowedExtensions,
  DOCUMENT_TYPE_CODES,
  DOCUMENT_TYPES,
  type DocumentType,
  fileTypeOfName,
  MAX_FILE_SIZE_BYTES,
} from "./document-types.ts";
import { ApiError, ValidationError } from "./errors.ts";
import type { FieldError } from "./problems.ts";

/** Largest create body, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

export const PROCESS_TYPES = ["async", "sync"] as const;

const NO_CONTROL_CHARACTERS = /^[^\p{C}]*$/u;
const SAFE_FILENAME = /^[^/\\\p{C}]*$/u;

export const createVerificationBody = z
  .strictObject({
    document_type: z.enum(DOCUMENT_TYPE_CODES).describe("The kind of document; it decides the file types allowed"),
    process_type: z
      .enum(PROCESS_TYPES)
      .default("async")
      .describe("`sync`: upload-complete waits up to 25 s for the result; `async`: it answers at once"),
    external_reference_id: z
      .string()
      .min(1)
      .max(128)
      .regex(NO_CONTROL_CHARACTERS, { error: "external_reference_id must not contain control characters" })
      .optional()
      .describe("Your own reference for this document, returned as sent"),
    original_filename: z
      .string()
      .min(1)
      .max(255)
      .regex(SAFE_FILENAME, { error: "original_filename must not contain /, \\ or control characters" })
      .describe("The file's name, with an extension its document type allows"),
    file_size_bytes: z
      .int()
      .min(1)
      .max(MAX_FILE_SIZE_BYTES)
      .describe("The exact size of the file you will upload: the upload URL accepts only this size"),
  })
  .superRefine((body, ctx) => {
    // Zod runs this also when some fields already failed: check only what is still in question.
    const definition = DOCUMENT_TYPES[body.document_type] as (typeof DOCUMENT_TYPES)[DocumentType] | undefined;
    if (!definition) return;
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
  });

export type CreateVerificationRequest = z.infer<typeof createVerificationBody>;

function fieldErrors(error: z.ZodError, sent: object): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const field = issue.path.join(".") || "(body)";
    switch (issue.code) {
      case "unrecognized_keys":
        return issue.keys.map((key) => ({
          field: key,
          code: "unknown_field",
          message: `${key} is not a field of this request`,
        }));
      case "invalid_type":
        return [
          !(String(issue.path[0]) in sent) || (sent as Record<string, unknown>)[String(issue.path[0])] === undefined
            ? { field, code: "required", message: `${field} is required` }
            : {
                field,
                code: "invalid_type",
                message: `${field} must be ${issue.expected === "int" ? "an integer" : `a ${issue.expected}`}`,
              },
        ];
      case "too_big":
        return [
          {
            field,
            code: issue.origin === "string" ? "too_long" : "too_large",
            message: `${field} must be at most ${issue.maximum}${issue.origin === "string" ? " characters" : ""}`,
          },
        ];
      case "too_small":
        return [
          {
            field,
            code: issue.origin === "string" ? "too_short" : "too_small",
            message: `${field} must be at least ${issue.minimum}${issue.origin === "string" ? " characters" : ""}`,
          },
        ];
      case "invalid_value":
        return [
          {
            field,
            code: "invalid_value",
            message: `${field} must be one of: ${issue.values.map(String).join(", ")}`,
          },
        ];
      case "custom":
        return [{ field, code: String(issue.params?.code ?? "invalid"), message: issue.message }];
      default:
        return [{ field, code: "invalid_format", message: issue.message }];
    }
  });
}

/** A JSON body, parsed and checked, or the error the contract prescribes. */
export function parseCreateBody(text: string): CreateVerificationRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("malformed_json", "The request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError("malformed_json", "The request body must be a JSON object");
  }
  const parsed = createVerificationBody.safeParse(value);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error, value));
  return parsed.data;
}

export const idempotencyKey = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/)
  .describe("One stable key per create request, reused only to retry that same request; kept 24 hours");

export function parseIdempotencyKey(value: string | undefined): string {
  if (value === undefined) {
    throw new ApiError("idempotency_key_missing", "Send an Idempotency-Key header: one stable key per create request");
  }
  const parsed = idempotencyKey.safeParse(value);
  if (!parsed.success) {
    throw new ApiError("idempotency_key_invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters");
  }
  return parsed.data;
}

const jsonMediaType = z
  .string()
  .transform((value) => value.split(";")[0]?.trim().toLowerCase())
  .pipe(z.literal("application/json"));

export function assertJsonContentType(value: string | undefined): void {
  if (!jsonMediaType.safeParse(value ?? "").success) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
  }
}

export function assertBodySize(text: string): void {
  if (Buffer.byteLength(text, "utf8") > MAX_BODY_BYTES) {
    throw new ApiError("payload_too_large", `The request body must be at most ${MAX_BODY_BYTES} bytes`);
  }
}
