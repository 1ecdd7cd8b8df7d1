import type { DocumentType } from "../domain/document-types.ts";

/** What the authority service holds for one barcode. */
export type CatalogueEntry = { kind: "document"; bytes: Uint8Array } | { kind: "unavailable" };

/** The certificates the project's own authority service issues (the published test set, and local additions). */
export interface IssuerCatalogue {
  find(documentType: DocumentType, barcode: string): Promise<CatalogueEntry | undefined>;
}
