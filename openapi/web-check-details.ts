/**
 * What the pages need of the API's check-detail catalogue, which they may not import: every
 * detail code with the API's English sentence, the unreadable reasons among them, and the
 * causes of an unanswered lookup in the API's words. `npm run openapi` writes it to
 * `web/common/api-check-details.ts`; a test fails when the committed file differs from a fresh
 * rendering. The pages' own words (Turkish, and English) are keyed by these codes.
 */
import { CHECK_DETAILS, ISSUER_CAUSE_WORDS, UNREADABLE_DETAILS } from "#shared/domain/check-details";
import { formatted } from "./parts.ts";

export const WEB_CHECK_DETAILS = "web/common/api-check-details.ts";

const literal = (value: unknown) => JSON.stringify(value, null, 2);

/** The module's source, formatted by the project's formatter. */
export function renderWebCheckDetails(): string {
  return formatted(
    [
      "/**",
      " * The API's check details: each code's English sentence (`{name}` its parameters), the",
      " * unreadable reasons among them, and the causes of an unanswered lookup, generated from",
      " * shared/domain/check-details.ts by `npm run openapi`. Do not edit.",
      " */",
      "",
      "/** Each detail code's sentence, as the API writes `detail`. */",
      `export const API_DETAILS = ${literal(CHECK_DETAILS)} as const;`,
      "",
      "/** The codes of why a document cannot be read (a `reason` parameter is one of them). */",
      `export const UNREADABLE_CODES = ${literal(Object.keys(UNREADABLE_DETAILS))} as const;`,
      "",
      "/** Each cause of an unanswered lookup (a `cause` parameter), in the API's words. */",
      `export const API_CAUSES = ${literal(ISSUER_CAUSE_WORDS)} as const;`,
      "",
    ].join("\n"),
    WEB_CHECK_DETAILS,
  );
}
