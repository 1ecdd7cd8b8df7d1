import type { DocumentType } from "../domain/document-types.ts";

export interface IssuerLookup {
  documentType: DocumentType;
  barcode: string;
  /** The holder's identity number, as the issuer asks for it; never stored or logged. */
  identityNumber: string;
}

/** What the issuer says of a barcode: its copy of the document, that it has none, or nothing. */
export type IssuerAnswer =
  | { kind: "found"; document: Uint8Array; issuedAt?: string }
  | { kind: "not_found" }
  | { kind: "unavailable" };

/**
 * The issuing authority: the issuer's own copy of a document, by barcode and identity number.
 * Where none is configured the check cannot run, and a person decides.
 */
export interface Authority {
  lookup(request: IssuerLookup): Promise<IssuerAnswer>;
}
