/**
 * The e-Devlet simulator's certificates, from folders searched to any depth for
 * `<barcode>.pdf` and the empty markers `<barcode>.<behaviour>` (`../ports/issuer-catalogue.ts`).
 * The folders are read at every lookup, so a file added while the simulator runs is served.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { BARCODE_PATTERN } from "../domain/certificates/keys.ts";
import {
  type CatalogueEntry,
  type IssuerCatalogue,
  SIMULATED_BEHAVIOURS,
  type SimulatedBehaviour,
} from "../ports/issuer-catalogue.ts";

/** Every file under `folder`, as paths relative to it, in a stable order; none for a folder that does not exist. */
async function filesUnder(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder, { recursive: true })).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

const behaviourOf = (extension: string): SimulatedBehaviour | undefined =>
  SIMULATED_BEHAVIOURS.find((behaviour) => `.${behaviour}` === extension);

/** The first folder holding a file for the barcode wins, for the document and the marker each. */
export function folderCatalogue(folders: readonly string[]): IssuerCatalogue {
  return {
    async find(barcode: string): Promise<CatalogueEntry | undefined> {
      // The barcode names a file: only the contract's characters, so no path can be formed.
      if (!BARCODE_PATTERN.test(barcode)) return undefined;
      let document: string | undefined;
      let behaviour: SimulatedBehaviour | undefined;
      for (const folder of folders) {
        for (const file of await filesUnder(folder)) {
          const name = path.basename(file);
          if (!name.startsWith(`${barcode}.`)) continue;
          const extension = name.slice(barcode.length);
          if (extension === ".pdf") document ??= path.join(folder, file);
          else behaviour ??= behaviourOf(extension);
        }
      }
      if (document === undefined && behaviour === undefined) return undefined;
      return {
        ...(document !== undefined && { document: new Uint8Array(await readFile(document)) }),
        ...(behaviour !== undefined && { behaviour }),
      };
    },
  };
}
