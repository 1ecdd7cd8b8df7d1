/**
 * The portal's words: in the browser's language (Turkish when it prefers Turkish to English,
 * English otherwise), switched from the header and kept in memory for the page's life only.
 */
import { translator } from "../common/i18n.ts";
import type { Language, Values } from "../common/language.ts";
import { ApiError } from "../common/problem.ts";
import { en, type TextKey } from "./text-en.ts";
import { tr } from "./text-tr.ts";

export type { TextKey };

/** The first of the browser's languages the portal speaks; English when it names neither. */
export function browserLanguage(languages: readonly string[]): Language {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split("-")[0];
    if (primary === "tr" || primary === "en") return primary;
  }
  return "en";
}

export const text = translator<TextKey>({ tr, en }, browserLanguage(navigator.languages));

export const t = text.t;

/** Refusals the page itself makes (no answer, an answer that is no problem, the session gone): said by their label alone. */
const PAGE_MADE = new Set(["network", "unexpected", "invalid_token"]);

/**
 * What went wrong, for the member: in English the API's own detail; in Turkish its code's label,
 * never the API's English detail (a code the page has no label for: `fallback` and the code). A
 * failure that is no refusal reads as `fallback` says.
 */
export function problemText(error: unknown, fallback: TextKey, values?: Values): string {
  if (!(error instanceof ApiError)) return t(fallback, values);
  const key = `problem.${error.code}`;
  if (!(key in en)) return text.language() === "en" ? error.message : `${t(fallback, values)} (${error.code})`;
  if (PAGE_MADE.has(error.code)) return t(key as TextKey, { status: error.status });
  return text.language() === "en" ? error.message : t(key as TextKey);
}

/** Writes the page's fixed words (elements with `data-text`, names with `data-aria-text`) and its title in the current language. */
export function writeFixedText(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>("[data-text]")) {
    const key = element.dataset.text ?? "";
    if (key in en) element.textContent = t(key as TextKey);
  }
  for (const element of root.querySelectorAll<HTMLElement>("[data-aria-text]")) {
    const key = element.dataset.ariaText ?? "";
    if (key in en) element.setAttribute("aria-label", t(key as TextKey));
  }
  document.title = t("page.title");
}
