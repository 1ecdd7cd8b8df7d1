/**
 * The pages' languages and how a text's `{name}` placeholders are filled: no DOM here, so what
 * writes words without a document (a check's detail) can be tested beside the API's catalogue.
 */

export const LANGUAGES = ["tr", "en"] as const;
export type Language = (typeof LANGUAGES)[number];

export type Values = Record<string, string | number>;

/** `{name}` in `text` replaced by its value; a placeholder with no value stays as written. */
export function fill(text: string, values: Values = {}): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
