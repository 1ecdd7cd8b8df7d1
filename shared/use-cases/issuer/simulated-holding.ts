/**
 * What the e-Devlet simulator holds for a barcode: its behaviour, if a marker names one, and its
 * document with the holder's identity number as printed in it, so the simulator answers `found`
 * only when the number asked is that one, as e-Devlet does.
 */
import { documentKeys } from "../../domain/certificates/keys.ts";
import type { DocumentReader } from "../../ports/document-reader.ts";
import type { IssuerCatalogue, SimulatedHolding } from "../../ports/issuer-catalogue.ts";

/**
 * Undefined for a barcode e-Devlet would not know: nothing held under it, or a document that
 * prints another barcode (a certificate copied under another name). A document that cannot be
 * read makes the barcode answer as an issuer in trouble (`error`), never as a refusal.
 */
export async function simulatedHolding(
  deps: { catalogue: IssuerCatalogue; reader: DocumentReader },
  barcode: string,
): Promise<SimulatedHolding | undefined> {
  const entry = await deps.catalogue.find(barcode);
  if (!entry) return undefined;
  const behaviour = entry.behaviour;
  if (!entry.document) return { behaviour, document: undefined };
  const read = await deps.reader.read("pdf", entry.document);
  if (!read.readable) return { behaviour: behaviour ?? "error", document: undefined };
  const printed = documentKeys(read.content);
  if (printed.barcode !== barcode) return behaviour ? { behaviour, document: undefined } : undefined;
  return { behaviour, document: { bytes: entry.document, holder: printed.identityNumber } };
}
