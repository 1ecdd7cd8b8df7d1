/**
 * The two keys the issuer's barcode service asks for: the barcode number and the holder's
 * T.C. identity number, read from a document's text layer or its QR codes.
 */
import { type LabelTable, readLabelled } from "./labels.ts";

/** The labels that print the keys on every e-Devlet certificate. */
export const KEY_LABELS = {
  barcode: ["Barkod No", "Belge Doğrulama Kodu", "Doğrulama Kodu"],
  identity_number: ["T.C. Kimlik No", "T.C. Kimlik Numarası", "Kimlik No"],
} as const satisfies LabelTable<string>;

/** What a verification reads from a document: its text lines and the payloads of its QR codes. */
export interface DocumentText {
  lines: readonly string[];
  qrCodes: readonly string[];
}

/** The keys found; either may be missing. */
export interface DocumentKeys {
  barcode?: string;
  identityNumber?: string;
}

/**
 * The keys as a verification keeps them for its reviewers: the barcode, and the identity number
 * masked (`maskIdentityNumber`), never in clear; null for a key the checks did not read.
 */
export interface RecordedKeys {
  barcode: string | null;
  identity_number_masked: string | null;
}

/** What an e-Devlet barcode number looks like: upper-case letters, digits and hyphens. */
export const BARCODE_PATTERN = /^[A-Z0-9-]{8,40}$/;
/** A T.C. identity number's shape; `isIdentityNumber` also checks its checksum. */
export const IDENTITY_NUMBER_PATTERN = /^[1-9][0-9]{10}$/;
const BARCODE_PARAMETERS = ["barkod", "belgeno", "barcode"];
const IDENTITY_PARAMETERS = ["tckn"];

/** Whether `text` is an e-Devlet barcode number: 8 to 40 upper-case letters, digits and hyphens. */
export function isBarcode(text: string): boolean {
  return BARCODE_PATTERN.test(text);
}

/**
 * Whether `text` is a T.C. identity number: 11 digits, the first not 0, the tenth
 * `((d1+d3+d5+d7+d9)*7 - (d2+d4+d6+d8)) mod 10` and the eleventh the sum of the first ten mod 10.
 */
export function isIdentityNumber(text: string): boolean {
  if (!IDENTITY_NUMBER_PATTERN.test(text)) return false;
  const d = [...text].map(Number);
  const at = (position: number) => d[position - 1] ?? 0;
  const odd = at(1) + at(3) + at(5) + at(7) + at(9);
  const even = at(2) + at(4) + at(6) + at(8);
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  const eleventh = d.slice(0, 10).reduce((sum, digit) => sum + digit, 0) % 10;
  return at(10) === tenth && at(11) === eleventh;
}

/** `text` upper-cased, when that is a barcode number. */
function barcodeOf(text: string): string | undefined {
  const upper = text.trim().toUpperCase();
  return isBarcode(upper) ? upper : undefined;
}

function identityNumberOf(text: string): string | undefined {
  const trimmed = text.trim();
  return isIdentityNumber(trimmed) ? trimmed : undefined;
}

/**
 * The key in a printed value. Text runs may split the key with spaces, so the whole value
 * without its spaces is tried first; then only its first word, for a line that goes on after
 * the key. (A QR payload has no runs: its values are taken whole or not at all.)
 */
function printedKey(value: string | undefined, keyOf: (text: string) => string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return keyOf(value.replace(/\s+/g, "")) ?? keyOf(value.trim().split(/\s+/)[0] ?? "");
}

/** The scheme of the payload e-Devlet's own verification app reads; it may be missing. */
const APP_SCHEME = /^barkodlubelgedogrulama:\/\//i;
/** One `name: value` item of that payload, spaces allowed around the name and the value. */
const APP_PAIR = /^\s*(barkod|tckn)\s*:(.*)$/i;

/**
 * The keys of the payload e-Devlet's own verification app reads,
 * `barkodlubelgedogrulama://barkod: <barcode>;tckn:<T.C. number>`, or undefined when `text` is
 * not one: neither the scheme nor a `barkod:` or `tckn:` pair comes first. Items are split at
 * `;` and may come in any order; items that are not a `barkod` or `tckn` pair (an empty one after
 * a trailing `;`, the `https://…` link a transcript appends) are passed over, and the first
 * well-formed value of each name is kept.
 */
function appPayloadKeys(text: string): DocumentKeys | undefined {
  const items = text.replace(APP_SCHEME, "").split(";");
  if (!APP_SCHEME.test(text) && !APP_PAIR.test(items[0] ?? "")) return undefined;
  const keys: DocumentKeys = {};
  for (const item of items) {
    const [, name, value = ""] = APP_PAIR.exec(item) ?? [];
    if (name?.toLowerCase() === "barkod") keys.barcode ??= barcodeOf(value);
    if (name?.toLowerCase() === "tckn") keys.identityNumber ??= identityNumberOf(value);
  }
  return keys;
}

/**
 * The keys a verification link carries: its query names the barcode (`barkod`, `belgeNo` or
 * `barcode`, any case) and perhaps the identity number (`tckn`); the link may lack a scheme.
 */
function linkKeys(link: string): DocumentKeys {
  const query = link.slice(link.indexOf("?") + 1).split("#")[0] ?? "";
  const keys: DocumentKeys = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const parameter = name.toLowerCase();
    if (BARCODE_PARAMETERS.includes(parameter)) keys.barcode ??= barcodeOf(value);
    if (IDENTITY_PARAMETERS.includes(parameter)) keys.identityNumber ??= identityNumberOf(value);
  }
  return keys;
}

/** The keys a QR payload carries: e-Devlet's app payload, a verification link, or a bare barcode. */
function qrKeys(payload: string): DocumentKeys {
  const text = payload.trim();
  return appPayloadKeys(text) ?? (text.includes("?") ? linkKeys(text) : { barcode: barcodeOf(text) });
}

/**
 * The barcode number and identity number of a document. The text layer is read first (the
 * barcode after `Barkod No` or `Belge Doğrulama Kodu`, the identity number after
 * `T.C. Kimlik No`); the QR codes, in order, fill what the text lacks. A QR code carries the
 * payload e-Devlet's own verification app reads, `barkodlubelgedogrulama://barkod: <barcode>;tckn:<T.C. number>`
 * (the scheme perhaps missing, the pairs in any order and case, perhaps followed by further
 * items), or a verification link whose query names the barcode and perhaps `tckn`, or the bare
 * barcode. A value that is not well formed (a barcode outside 8-40 of `A-Z 0-9 -`, an identity
 * number failing its checksum) counts as absent. Never throws.
 */
export function documentKeys(document: DocumentText): DocumentKeys {
  const printed = readLabelled(document.lines, KEY_LABELS);
  let barcode = printedKey(printed.barcode, barcodeOf);
  let identityNumber = printedKey(printed.identity_number, identityNumberOf);
  for (const payload of document.qrCodes) {
    const found = qrKeys(String(payload));
    barcode ??= found.barcode;
    identityNumber ??= found.identityNumber;
  }
  return { ...(barcode !== undefined && { barcode }), ...(identityNumber !== undefined && { identityNumber }) };
}

/** How many digits of an identity number stay readable at each end when it is masked. */
const SHOWN_DIGITS = 2;

/**
 * An identity number as staff may see it: its first two and last two characters, every other
 * one `*` (`12*******34`). Anything shorter than five characters is masked whole.
 */
export function maskIdentityNumber(identityNumber: string): string {
  const hidden = identityNumber.length - 2 * SHOWN_DIGITS;
  if (hidden <= 0) return "*".repeat(identityNumber.length);
  return `${identityNumber.slice(0, SHOWN_DIGITS)}${"*".repeat(hidden)}${identityNumber.slice(-SHOWN_DIGITS)}`;
}

/** The keys the checks read, as the verification records them: the identity number masked. */
export function recordedKeys(keys: DocumentKeys): RecordedKeys {
  return {
    barcode: keys.barcode ?? null,
    identity_number_masked: keys.identityNumber === undefined ? null : maskIdentityNumber(keys.identityNumber),
  };
}
