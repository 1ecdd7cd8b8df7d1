/**
 * The API's own English sentences, from its catalogues (check details, the causes of an
 * unanswered lookup, reason messages, problem titles), so a page in Turkish can be searched for
 * any of them: the list grows with the catalogues. A sentence with values counts by its fixed
 * parts, each of 12 characters or more.
 */
import { CHECK_DETAILS, ISSUER_CAUSE_WORDS } from "#shared/domain/check-details";
import { REASON_MESSAGES } from "#shared/domain/reasons";
import { PROBLEMS } from "#shared/http/problems";

const SENTENCES = [
  ...Object.values(CHECK_DETAILS),
  ...Object.values(ISSUER_CAUSE_WORDS),
  ...Object.values(REASON_MESSAGES),
  ...Object.values(PROBLEMS).map((problem) => problem.title),
];

const PARTS = [
  ...new Set(
    SENTENCES.flatMap((sentence) => sentence.split(/\{[a-z_]+\}/))
      .map((part) => part.trim())
      .filter((part) => part.length >= 12),
  ),
];

/** The parts of the API's sentences that `text` holds. */
export function apiSentencesIn(text: string): string[] {
  return PARTS.filter((part) => text.includes(part));
}
