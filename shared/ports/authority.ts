import type { DocumentType } from "../domain/document-types.ts";
import type { UnavailableCause } from "../domain/issuer.ts";

export interface IssuerLookup {
  documentType: DocumentType;
  barcode: string;
  /** The holder's identity number, as the issuer asks for it; never stored, logged or put in an error. */
  identityNumber: string;
}

/**
 * What the issuer says of a barcode: its copy of the document, that it has none (a negative
 * answer it is known to give), or nothing a decision may rest on, and why.
 */
export type IssuerAnswer =
  | { kind: "found"; document: Uint8Array }
  | { kind: "not_found" }
  | { kind: "unavailable"; cause: UnavailableCause };

/**
 * One request and its answer as `ops issuer record` keeps them in a cassette: the request's
 * method, path and form fields; the answer's status, headers and body (base64), or for a PDF its
 * SHA-256 and size only. What the adapter hands over holds the identity number and cookies; the
 * recorder redacts both before anything is written.
 */
export interface RecordedExchange {
  method: string;
  path: string;
  form?: Record<string, string>;
  status: number;
  headers: Record<string, string[]>;
  body: { base64: string } | { pdf: { sha256: string; size: number } };
}

/**
 * What a probe of the issuer reports of one lookup, step by step (`ops issuer probe`): each
 * request's method, path (the identity number masked), status, content type and size; and for
 * each page read, the token and the link to the document found on it and the messages it shows.
 * Never the identity number, never the document.
 */
export type ProbeStep =
  | {
      kind: "request";
      method: string;
      path: string;
      status: number;
      contentType: string;
      bytes: number;
      /** The whole exchange, for a cassette (`ops issuer record`), which redacts it before keeping it. */
      exchange: RecordedExchange;
    }
  | { kind: "page"; token?: string; link?: string; messages: string[] };

/**
 * The issuing authority: the issuer's own copy of a document, by barcode and identity number.
 * A lookup never throws: whatever goes wrong is `unavailable`, with its cause.
 */
export interface Authority {
  lookup(request: IssuerLookup): Promise<IssuerAnswer>;
}
