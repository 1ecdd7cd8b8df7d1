/**
 * The issuer-lookup contract: one small HTTPS call the service makes to whichever integration
 * an operator runs, and that the project's own authority service answers in the sandbox and
 * on this machine. `POST {AUTHORITY_URL}/v1/documents/lookup` with a bearer secret.
 */
import { BARCODE_PATTERN, IDENTITY_NUMBER_PATTERN } from "./certificates/keys.ts";
import { DOCUMENT_TYPE_CODES } from "./document-types.ts";
import * as z from "./zod.ts";

export const ISSUER_LOOKUP_PATH = "/v1/documents/lookup";

export const issuerLookupRequestSchema = z.strictObject({
  document_type: z.enum(DOCUMENT_TYPE_CODES),
  barcode: z.string().check(z.regex(BARCODE_PATTERN)),
  identity_number: z.string().check(z.regex(IDENTITY_NUMBER_PATTERN)),
});
export type IssuerLookupRequest = z.infer<typeof issuerLookupRequestSchema>;

export const issuerFoundSchema = z.object({
  found: z.literal(true),
  document: z.base64(),
  issued_at: z.optional(z.string()),
});
export const issuerNotFoundSchema = z.object({ found: z.literal(false) });

/** One attempt's limit, and how many times a call is retried after the first. */
export const ISSUER_TIMEOUT_MS = 5_000;
export const ISSUER_RETRIES = 2;
/** The largest answer read: a 10 MiB document in base64, with room for the envelope. */
export const ISSUER_MAX_ANSWER_BYTES = 15 * 1024 * 1024;
