/**
 * The authority service's certificates, from folders laid out `<DOCUMENT_TYPE>/<barcode>.pdf`
 * (an empty `<barcode>.unavailable` makes the service answer as an issuer that is down).
 * Read at every lookup, so a file added while the service runs is served.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { BARCODE_PATTERN } from "../domain/certificates/keys.ts";
import type { DocumentType } from "../domain/document-types.ts";
import type { CatalogueEntry, IssuerCatalogue } from "../ports/issuer-catalogue.ts";

async function readIfPresent(file: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The first folder that holds the barcode wins. */
export function folderCatalogue(folders: readonly string[]): IssuerCatalogue {
  return {
    async find(documentType: DocumentType, barcode: string): Promise<CatalogueEntry | undefined> {
      // The barcode names a file: only the contract's characters, so no path can be formed.
      if (!BARCODE_PATTERN.test(barcode)) return undefined;
      for (const folder of folders) {
        const base = path.join(folder, documentType, barcode);
        const bytes = await readIfPresent(`${base}.pdf`);
        if (bytes) return { kind: "document", bytes };
        if (await readIfPresent(`${base}.unavailable`)) return { kind: "unavailable" };
      }
      return undefined;
    },
  };
}
