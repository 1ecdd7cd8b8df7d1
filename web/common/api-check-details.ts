/**
 * The API's check details: each code's English sentence (`{name}` its parameters), the
 * unreadable reasons among them, and the causes of an unanswered lookup, generated from
 * shared/domain/check-details.ts by `npm run openapi`. Do not edit.
 */

/** Each detail code's sentence, as the API writes `detail`. */
export const API_DETAILS = {
  document_stored: "The document is stored",
  document_not_stored: "No document is stored for this verification",
  size_as_declared: "{bytes} bytes, as declared",
  size_differs: "The document has {bytes} bytes, not the declared {declared_bytes}",
  file_type_is: "The content is {file_type}",
  file_type_refused: "The content is not a file type {document_type} accepts",
  document_opens: "The {file_type} opens",
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
  barcode_and_number_read: "Barcode {barcode} and the identity number were read",
  barcode_and_number_sent: "Barcode {barcode} and the identity number were sent with the request",
  barcode_without_number: "Barcode {barcode} was read, but no identity number to ask the issuer with",
  barcode_not_in_pdf: "The PDF carries no barcode number, in its text or its QR code",
  barcode_not_in_image: "The photo or scan holds no QR code with the barcode number",
  issuer_holds_keys: "The issuer holds the document for the keys sent; there was no upload to compare",
  issuer_holds_image: "The issuer holds the document for these keys; a photo or scan cannot be compared with it",
  issuer_copy_same_bytes: "The document is byte for byte the issuer's copy",
  issuer_copy_same_text: "The document has the same content as the issuer's copy, in another file",
  issuer_copy_differs: "The document's text differs from the issuer's copy",
  issuer_not_found: "The issuer has no document with this barcode for this identity number",
  issuer_not_configured: "No issuer integration is configured",
  issuer_no_answer: "No answer: {cause}, though asked again for the whole retry window",
  issuer_copy_unreadable: "The issuer's copy could not be read: {reason}",
  fields_read: "Read the document's fields from the issuer's copy",
  fields_missing: "Missing or malformed: {fields}",
  rule_met: "{rule}",
  rule_not_met: "{rule}",
  issue_date_missing: "The issuer's copy prints no issue date to judge its age by",
  issued_within: "Issued {days} days ago, within the {max_days} allowed",
  issued_too_long_ago: "Issued {days} days ago, more than the {max_days} allowed",
  subject_matches: "The expected subject is the one the issuer's copy names",
  subject_differs: "The document is about someone other than the expected subject",
  not_run_earlier_failed: "Not run: an earlier check failed",
  not_run_decided: "Not run: an earlier check decided the outcome",
  not_run_sandbox_prefix: "Not run: the sandbox reference prefix {prefix} chose the outcome",
  unrecorded: "{detail}",
} as const;

/** The codes of why a document cannot be read (a `reason` parameter is one of them). */
export const UNREADABLE_CODES = [
  "pdf_encrypted",
  "pdf_no_pages",
  "pdf_too_many_pages",
  "pdf_unreadable",
  "png_truncated",
  "png_no_header",
  "png_header_invalid",
  "jpeg_invalid",
  "jpeg_frame_invalid",
  "jpeg_no_frame",
  "image_too_large",
  "image_unreadable",
  "read_too_slow",
  "read_too_large",
] as const;

/** Each cause of an unanswered lookup (a `cause` parameter), in the API's words. */
export const API_CAUSES = {
  timeout: "the issuer did not answer in time",
  http_error: "the issuer answered with an error",
  busy: "the issuer was busy",
  unrecognised: "the issuer answered in a way the service does not recognise",
  unreachable: "the issuer could not be reached",
} as const;
