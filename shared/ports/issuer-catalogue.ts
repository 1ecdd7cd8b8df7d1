/**
 * What the e-Devlet simulator holds: the test certificates, found by barcode alone (e-Devlet
 * knows no document types), and the behaviours that make it answer as e-Devlet does on a bad
 * day, each named by an empty marker file `<barcode>.<behaviour>`.
 */

/**
 * - `busy`: the form answers step 2 with `429` and `Retry-After`; the mobile endpoint with `kuyrukMu: 1`.
 * - `error`: a `500`.
 * - `slow`: the answer is held 20 s, past any client's budget, or until the client goes away.
 * - `unrecognised`: a page e-Devlet never gave, or a mobile message never seen.
 * - `not-pdf`: step 5 answers an HTML page; the mobile endpoint the base64 of something that is no PDF.
 * - `session-lost`: the session is forgotten after step 2, so step 3 lands on the start page.
 * - `token-stale`: step 3's token is refused as stale.
 */
export const SIMULATED_BEHAVIOURS = [
  "busy",
  "error",
  "slow",
  "unrecognised",
  "not-pdf",
  "session-lost",
  "token-stale",
] as const;
export type SimulatedBehaviour = (typeof SIMULATED_BEHAVIOURS)[number];

/** The files held under one barcode: its PDF and its behaviour marker, either or both. */
export interface CatalogueEntry {
  document?: Uint8Array;
  behaviour?: SimulatedBehaviour;
}

/** The simulator's certificates, read at every lookup, so a file added while it runs is served. */
export interface IssuerCatalogue {
  /** What is held under `barcode`; undefined when nothing is (or `barcode` could not name a file). */
  find(barcode: string): Promise<CatalogueEntry | undefined>;
}

/** The document the simulator holds for a barcode, and the identity number printed in it. */
export interface HeldDocument {
  bytes: Uint8Array;
  /** The holder's T.C. identity number as the document prints it; undefined when it prints none. */
  holder: string | undefined;
}

/** What the simulator holds for a barcode it knows: a behaviour, a document, or both. */
export interface SimulatedHolding {
  behaviour: SimulatedBehaviour | undefined;
  document: HeldDocument | undefined;
}

/** What the simulator holds for `barcode`; undefined for a barcode e-Devlet does not know. */
export type HoldingLookup = (barcode: string) => Promise<SimulatedHolding | undefined>;
