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
 * What a probe of the issuer reports of one lookup, step by step (`ops issuer probe`): each
 * request's method, path (the identity number masked), status, content type and size; and for
 * each page read, the token and the link to the document found on it and the messages it shows.
 * Never the identity number, never the document.
 */
export type ProbeStep =
  | { kind: "request"; method: string; path: string; status: number; contentType: string; bytes: number }
  | { kind: "page"; token?: string; link?: string; messages: string[] };

/**
 * The issuing authority: the issuer's own copy of a document, by barcode and identity number.
 * A lookup never throws: whatever goes wrong is `unavailable`, with its cause.
 */
export interface Authority {
  lookup(request: IssuerLookup): Promise<IssuerAnswer>;
}
