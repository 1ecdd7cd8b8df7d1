/**
 * The `subject_match` check: whether a certificate is about the person the customer expected.
 */
import { foldTurkish } from "./turkish.ts";

/** Who a certificate is about, as read from it; null where it does not print the field. */
export interface Subject {
  full_name: string | null;
  /** ISO `YYYY-MM-DD`. */
  birth_date: string | null;
}

/** Who the customer expects the certificate to be about (`expected_subject` on create). */
export interface ExpectedSubject {
  full_name?: string;
  /** ISO `YYYY-MM-DD`. */
  birth_date?: string;
  /** The identity number's keyed digest (`SubjectDigest`), never the number. */
  identity_number_digest?: string;
}

/**
 * Whether every field the customer gave matches the certificate: the full name after
 * Turkish-aware case folding and whitespace normalisation, the birth date ignoring spaces. A
 * field the customer gave that the certificate does not print is a mismatch, since nothing
 * shows it is the same person. The identity number is compared by its digest: `keyedNumber` is
 * the digest of the number the document's keys carry (absent when they carry none).
 */
export function sameSubject(expected: ExpectedSubject, printed: Subject, keyedNumber?: string): boolean {
  const nameMatches =
    expected.full_name === undefined ||
    (printed.full_name !== null && foldTurkish(expected.full_name) === foldTurkish(printed.full_name));
  const dateMatches =
    expected.birth_date === undefined ||
    (printed.birth_date !== null && expected.birth_date.replace(/\s+/g, "") === printed.birth_date);
  const numberMatches =
    expected.identity_number_digest === undefined || expected.identity_number_digest === keyedNumber;
  return nameMatches && dateMatches && numberMatches;
}
