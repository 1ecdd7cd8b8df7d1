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
 *
 * And where e-Devlet might disagree with the adapter's reading of it:
 * - `button`: the result page draws a button to the document, not a link.
 * - `windows-1254`: the pages after step 2 are in windows-1254, `ş` and `Ş` as references; another
 *   holder's number is refused on the consent page itself, in that charset.
 * - `negative-at-document`: step 5 answers a page whose message is a negative text, not the PDF.
 * - `hidden-negative`: the result page carries both negative texts in hidden markup; the PDF follows.
 * - `near-miss`: the consent step answers a message that is almost a negative text, and no document.
 * - `redirect-307`: step 2's POST answers `307` to another address, where it is to be sent again.
 * - `cookie-churn`: step 2 sets a cookie step 3 deletes (`Max-Age=0`); a client that still sends it starts over.
 * - `browser-only`: a request without a browser's `User-Agent` is refused (`403`) at step 2 and on the mobile endpoint.
 * - `rerendered`: the copy is re-rendered on every lookup: other bytes (a comment after its end), the same text.
 */
export const SIMULATED_BEHAVIOURS = [
  "busy",
  "error",
  "slow",
  "unrecognised",
  "not-pdf",
  "session-lost",
  "token-stale",
  "button",
  "windows-1254",
  "negative-at-document",
  "hidden-negative",
  "near-miss",
  "redirect-307",
  "cookie-churn",
  "browser-only",
  "rerendered",
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
