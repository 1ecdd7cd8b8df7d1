/**
 * The portal's newer texts in the browser's language: Turkish when it prefers Turkish, English
 * otherwise. Each text is given in both; an element that holds one carries its `lang`.
 */
export type Language = "tr" | "en";

export function portalLanguage(): Language {
  return navigator.languages.some((language) => language.toLowerCase().startsWith("tr")) ? "tr" : "en";
}

/** The text of `texts` in the portal's language. */
export function say(texts: { en: string; tr: string }): string {
  return texts[portalLanguage()];
}
