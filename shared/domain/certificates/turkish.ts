/**
 * Turkish-aware text comparison. Certificates print names and labels in upper case with
 * Turkish letters (İ, Ş, Ğ, Ü, Ö, Ç), but text layers, customers and keyboards often give the
 * ASCII look-alikes or the other case, and JavaScript's own case mapping gets the dotted and
 * dotless i wrong for Turkish. Folding maps all of them to one plain form before comparing.
 */

// The four Turkish i's fold to one letter. `İ`.toLowerCase() would give `i` plus a combining dot,
// and `ı` has no decomposition, so both are mapped before the general rules run.
const TURKISH_I = /[İIı]/g;
const COMBINING_MARKS = /\p{M}/gu;
const WHITESPACE = /\s+/g;

/**
 * One text's letters in their comparable form, keeping every whitespace character as one space
 * and the text's length otherwise free: lower case, no accents or cedillas, each Turkish letter
 * as its ASCII look-alike (`Ş` -> `s`, `ı` -> `i`). Other letters are only lower-cased.
 */
export function foldLetters(text: string): string {
  // Decomposing both before and after lower-casing matters: a few characters decompose to an
  // upper-case letter (the Ohm sign to Omega), and lower-casing `İ` adds a combining mark.
  return text
    .replace(TURKISH_I, "i")
    .normalize("NFD")
    .replace(COMBINING_MARKS, "")
    .toLowerCase()
    .normalize("NFD")
    .replace(COMBINING_MARKS, "")
    .replace(WHITESPACE, " ");
}

/** Collapses every run of whitespace to one space and trims the ends. */
export function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE, " ").trim();
}

/**
 * `text` in a comparable ASCII-leaning form: Turkish-aware lower case (İ, I, ı and i all become
 * `i`), Turkish letters as their ASCII look-alikes, combining marks removed, whitespace
 * collapsed and trimmed. Folding a folded text changes nothing.
 */
export function foldTurkish(text: string): string {
  return collapseWhitespace(foldLetters(text));
}

/** Whether two names are the same once case, Turkish letters and spacing are set aside. */
export function sameName(a: string, b: string): boolean {
  return foldTurkish(a) === foldTurkish(b);
}
