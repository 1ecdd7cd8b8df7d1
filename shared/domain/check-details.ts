/**
 * What a check's detail says, by code: the one catalogue of the API's check sentences. A check
 * carries its `detail_code` and `detail_params`, and its English `detail` is written here from
 * them, so a page can write the same detail in its own language from the code (web/common's
 * `check-details.ts` holds the pages' words for every code here, and a test holds them equal).
 */

import { rulesOf } from "./document-types.ts";
import type { UnavailableCause } from "./issuer.ts";
import { TYPE_FACTS } from "./type-facts.ts";

/** Why the issuer's answer could not be had (the `cause` of `issuer_no_answer`), in the words of the authority check's detail. */
export const ISSUER_CAUSE_WORDS: Readonly<Record<UnavailableCause, string>> = {
  timeout: "the issuer did not answer in time",
  http_error: "the issuer answered with an error",
  busy: "the issuer was busy",
  unrecognised: "the issuer answered in a way the service does not recognise",
  unreachable: "the issuer could not be reached",
};

/**
 * Why a document cannot be read: the failed `document_readable` check's detail, and the
 * `reason` of `issuer_copy_unreadable` (with the same parameters beside it).
 */
export const UNREADABLE_DETAILS = {
  pdf_encrypted: "The PDF is encrypted",
  pdf_no_pages: "The PDF has no pages",
  pdf_too_many_pages: "The PDF has more than {max_pages} pages",
  pdf_unreadable: "The PDF could not be read",
  png_truncated: "The PNG is truncated",
  png_no_header: "The PNG has no image header",
  png_header_invalid: "The PNG's image header is not valid",
  jpeg_invalid: "The JPEG's structure is not valid",
  jpeg_frame_invalid: "The JPEG's frame header is not valid",
  jpeg_no_frame: "The JPEG has no frame header",
  image_too_large: "The image ({width} x {height}) needs more than {mib} MiB to decode",
  image_unreadable: "The {file_type} could not be read",
  read_too_slow: "The document takes more than {seconds} s to read",
  read_too_large: "The document needs more than {mib} MiB of memory to read",
} as const;
export type UnreadableCode = keyof typeof UNREADABLE_DETAILS;

/** Why a document cannot be read, with the values its sentence names. */
export interface UnreadableReason {
  code: UnreadableCode;
  params: DetailParams;
}

/** Every detail a check can give, by code, as the API writes it in English (`{name}` a parameter). */
export const CHECK_DETAILS = {
  // The upload's own checks.
  document_stored: "The document is stored",
  document_not_stored: "No document is stored for this verification",
  size_as_declared: "{bytes} bytes, as declared",
  size_differs: "The document has {bytes} bytes, not the declared {declared_bytes}",
  file_type_is: "The content is {file_type}",
  file_type_refused: "The content is not a file type {document_type} accepts",
  document_opens: "The {file_type} opens",
  ...UNREADABLE_DETAILS,
  // The keys.
  barcode_and_number_read: "Barcode {barcode} and the identity number were read",
  barcode_and_number_sent: "Barcode {barcode} and the identity number were sent with the request",
  barcode_without_number: "Barcode {barcode} was read, but no identity number to ask the issuer with",
  barcode_not_in_pdf: "The PDF carries no barcode number, in its text or its QR code",
  barcode_not_in_image: "The photo or scan holds no QR code with the barcode number",
  // The issuer's copy.
  issuer_holds_keys: "The issuer holds the document for the keys sent; there was no upload to compare",
  issuer_holds_image: "The issuer holds the document for these keys; a photo or scan cannot be compared with it",
  issuer_copy_same_bytes: "The document is byte for byte the issuer's copy",
  issuer_copy_same_text: "The document has the same content as the issuer's copy, in another file",
  issuer_copy_differs: "The document's text differs from the issuer's copy",
  issuer_not_found: "The issuer has no document with this barcode for this identity number",
  issuer_not_configured: "No issuer integration is configured",
  issuer_no_answer: "No answer: {cause}, though asked again for the whole retry window",
  issuer_copy_unreadable: "The issuer's copy could not be read: {reason}",
  // What the issuer's copy says.
  fields_read: "Read the document's fields from the issuer's copy",
  fields_missing: "Missing or malformed: {fields}",
  rule_met: "{rule}",
  rule_not_met: "{rule}",
  issue_date_missing: "The issuer's copy prints no issue date to judge its age by",
  issued_within: "Issued {days} days ago, within the {max_days} allowed",
  issued_too_long_ago: "Issued {days} days ago, more than the {max_days} allowed",
  subject_matches: "The expected subject is the one the issuer's copy names",
  subject_differs: "The document is about someone other than the expected subject",
  // Checks not run.
  not_run_earlier_failed: "Not run: an earlier check failed",
  not_run_decided: "Not run: an earlier check decided the outcome",
  not_run_sandbox_prefix: "Not run: the sandbox reference prefix {prefix} chose the outcome",
  // A check recorded before checks carried a code: its `detail` is all there is.
  unrecorded: "{detail}",
} as const;
export type DetailCode = keyof typeof CHECK_DETAILS;
export const DETAIL_CODES = Object.keys(CHECK_DETAILS) as [DetailCode, ...DetailCode[]];

/** A detail's parameters: numbers, words of the document (a barcode, a file type), codes, and lists of field names. */
export type DetailParams = Record<string, string | number | string[]>;

/**
 * A detail as a check records it: the code, its parameters (none kept when it has none: an empty
 * map does not come through the change stream as the local runtime reads it), and the English
 * sentence written from both.
 */
export interface CheckDetail {
  detail_code: DetailCode;
  detail_params?: DetailParams;
  detail: string;
}

/**
 * The English sentence of `code` with `params`: a list joined by commas; `cause` and `reason`
 * by their own words (a reason with the same parameters); `rule`, a rule check's name, by the
 * sentence its document type gives when the rule is met or not.
 */
export function detailSentence(code: DetailCode, params: DetailParams): string {
  return CHECK_DETAILS[code].replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    if (name === "rule") {
      const rule = RULES.find((candidate) => candidate.check === value);
      if (rule) return code === "rule_met" ? rule.met : rule.notMet;
    }
    if (typeof value !== "string") return typeof value === "number" ? String(value) : value.join(", ");
    if (name === "cause" && value in ISSUER_CAUSE_WORDS) return ISSUER_CAUSE_WORDS[value as UnavailableCause];
    if (name === "reason" && value in UNREADABLE_DETAILS) {
      return detailSentence(value as UnreadableCode, { ...params, reason: [] });
    }
    return value;
  });
}

const RULES = rulesOf(TYPE_FACTS);

/** The detail `code` with `params`, its sentence written. */
export function checkDetail(code: DetailCode, params: DetailParams = {}): CheckDetail {
  const kept = Object.keys(params).length > 0 ? { detail_params: params } : {};
  return { detail_code: code, ...kept, detail: detailSentence(code, params) };
}
