/**
 * The console's words: Turkish by default (its users are Turkish staff), English on request,
 * switched from the header and kept in memory for the page's life only.
 */
import { translator } from "../common/i18n.ts";
import type { Language } from "../common/language.ts";
import { ApiError } from "../common/problem.ts";
import { en, type TextKey } from "./text-en.ts";
import { tr } from "./text-tr.ts";

export const DEFAULT_LANGUAGE: Language = "tr";

export const text = translator<TextKey>({ tr, en }, DEFAULT_LANGUAGE);

export const t = text.t;

/** What an API refused, for the reviewer: in Turkish its code's label (never the API's English detail), in English the API's detail. */
export function problemText(error: unknown, fallback: TextKey): string {
  if (!(error instanceof ApiError)) return t(fallback);
  if (text.language() === "en") return error.message;
  const key = `problem.${error.code}`;
  return key in en ? t(key as TextKey) : `${t(fallback)} (${error.code})`;
}

/** Writes the page's fixed words (elements with `data-text`) and its title in the current language. */
export function writeFixedText(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>("[data-text]")) {
    const key = element.dataset.text ?? "";
    if (key in en) element.textContent = t(key as TextKey);
  }
  document.title = t("page.title");
}
