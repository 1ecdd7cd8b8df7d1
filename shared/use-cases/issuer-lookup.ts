/**
 * The project's own authority service: answers the issuer-lookup contract from its catalogue
 * of certificates, `found` only when the identity number asked for is the one the certificate
 * prints, as the issuer's barcode service answers.
 */
import { documentKeys } from "../domain/certificates/keys.ts";
import type { IssuerAnswer, IssuerLookup } from "../ports/authority.ts";
import type { DocumentReader } from "../ports/document-reader.ts";
import type { IssuerCatalogue } from "../ports/issuer-catalogue.ts";

export async function lookupIssuerDocument(
  deps: { catalogue: IssuerCatalogue; reader: DocumentReader },
  request: IssuerLookup,
): Promise<IssuerAnswer> {
  const entry = await deps.catalogue.find(request.documentType, request.barcode);
  if (!entry) return { kind: "not_found" };
  if (entry.kind === "unavailable") return { kind: "unavailable" };
  const read = await deps.reader.read("pdf", entry.bytes);
  if (!read.readable) return { kind: "unavailable" };
  const printed = documentKeys(read.content);
  return printed.identityNumber === request.identityNumber && printed.barcode === request.barcode
    ? { kind: "found", document: entry.bytes }
    : { kind: "not_found" };
}
