/**
 * Pages in Turkish and English: one dictionary per language, the same keys in each (the compiler
 * holds the keys, test/backoffice/text.test.ts holds the values), `{name}` placeholders filled
 * at the call. The chosen language lives in memory only, as the session does: nothing is kept
 * in storage, so a new tab starts in the page's default.
 */

import { fill, type Language, type Values } from "./language.ts";

/** What a page says, by key, in one language. */
export type Dictionary<K extends string> = Readonly<Record<K, string>>;

export interface Translator<K extends string> {
  language(): Language;
  /** Switches the language, marks the document's `lang`, and tells the listeners. */
  use(language: Language): void;
  /** The text of `key` with its placeholders filled. */
  t(key: K, values?: Values): string;
  /** The text of `key` as nodes, for placeholders filled with elements (a `<time>`). */
  nodes(key: K, values: Record<string, string | number | Node>): (string | Node)[];
  /** The label of a code in a group (`status.in_review`); the code in words when the dictionary has none. */
  label(group: string, code: string): string;
  onChange(listener: (language: Language) => void): void;
}

/** A code such as `issuer_unavailable` as words, for a code no dictionary names. */
function codeWords(code: string): string {
  const text = code.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function translator<K extends string>(
  dictionaries: Record<Language, Dictionary<K>>,
  initial: Language,
): Translator<K> {
  let current = initial;
  const listeners: ((language: Language) => void)[] = [];
  document.documentElement.lang = current;
  return {
    language: () => current,
    use(language) {
      if (language === current) return;
      current = language;
      document.documentElement.lang = language;
      for (const listener of listeners) listener(language);
    },
    t: (key, values) => fill(dictionaries[current][key], values),
    nodes(key, values) {
      return dictionaries[current][key].split(/(\{[a-z_]+\})/).map((piece) => {
        const value = /^\{([a-z_]+)\}$/.exec(piece)?.[1];
        if (value === undefined || !(value in values)) return piece;
        const filled = values[value];
        return filled instanceof Node ? filled : String(filled);
      });
    },
    label(group, code) {
      const dictionary = dictionaries[current] as Readonly<Record<string, string>>;
      return dictionary[`${group}.${code}`] ?? codeWords(code);
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}

/** Units of a rough duration, per language. */
const UNITS: Record<Language, { under: string; min: string; h: string; d: string }> = {
  tr: { under: "1 dakikadan az", min: "dk", h: "sa", d: "g" },
  en: { under: "under a minute", min: "min", h: "h", d: "d" },
};

/** A span of time, roughly, as a person says it: `under a minute`, `42 min`, `3 h 5 min`, `2 d 4 h`. */
export function duration(ms: number, language: Language): string {
  const units = UNITS[language];
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return units.under;
  if (minutes < 60) return `${minutes} ${units.min}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} ${units.h} ${minutes % 60} ${units.min}`;
  return `${Math.floor(hours / 24)} ${units.d} ${hours % 24} ${units.h}`;
}

/** A countdown as a clock: `14:05`, `0:59`. */
export function countdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
