/**
 * The issuer-lookup contract: one small HTTPS call the service makes to an integration an
 * operator runs for an issuer other than e-Devlet (`ISSUER=lookup`).
 * `POST {AUTHORITY_URL}/v1/documents/lookup` with a bearer secret.
 */
import type { DocumentType } from "./document-types.ts";
import * as z from "./zod.ts";

export const ISSUER_LOOKUP_PATH = "/v1/documents/lookup";

/** What the service sends: the document's type, its barcode and the holder's identity number. */
export interface IssuerLookupRequest {
  document_type: DocumentType;
  barcode: string;
  identity_number: string;
}

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
