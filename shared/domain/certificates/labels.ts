/**
 * A reader of `label : value` lines, built for the text layers certificates really have: labels
 * in any case, with Turkish letters or their ASCII look-alikes, the colon present or not,
 * values split into runs with extra spaces, fields in any order, and now and then a value on
 * the line after its label.
 */
import { collapseWhitespace, foldLetters, foldTurkish } from "./turkish.ts";

/**
 * Per field, the labels that may print it. Case and Turkish letters do not matter when
 * matching, nor do spaces and punctuation between a label's words (`T.C. Kimlik No` also
 * matches `TC KIMLIK NO`).
 */
export type LabelTable<Key extends string> = Readonly<Record<Key, readonly string[]>>;

interface CompiledLabel<Key extends string> {
  key: Key;
  /** The label's letters and digits, folded, each noting whether a space or punctuation precedes it. */
  letters: { letter: string; afterBreak: boolean }[];
}

/** A line folded character by character, remembering where each folded character came from. */
interface FoldedLine {
  text: string;
  chars: string[];
  /** `origin[i]` is the index in `text` of `chars[i]`; one extra entry holds `text.length`. */
  origin: number[];
}

interface Segment<Key extends string> {
  key: Key | undefined;
  from: number;
  to: number;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const LEADING_SEPARATORS = /^[\s.:]+/;

function isLetterOrDigit(char: string | undefined): boolean {
  return char !== undefined && LETTER_OR_DIGIT.test(char);
}

function labelLetters(label: string): CompiledLabel<string>["letters"] {
  const letters: CompiledLabel<string>["letters"] = [];
  let afterBreak = true;
  for (const char of foldTurkish(label)) {
    if (!isLetterOrDigit(char)) {
      afterBreak = true;
      continue;
    }
    letters.push({ letter: char, afterBreak });
    afterBreak = false;
  }
  return letters;
}

function compile<Key extends string>(labels: LabelTable<Key>): CompiledLabel<Key>[] {
  const compiled = (Object.keys(labels) as Key[]).flatMap((key) =>
    labels[key].map((label) => ({ key, letters: labelLetters(label) })),
  );
  // Longest first, so `Adı Soyadı` wins over `Adı` on the same line.
  return compiled.filter((label) => label.letters.length > 0).sort((a, b) => b.letters.length - a.letters.length);
}

// Folding one code point at a time is the reader's main cost, and a document repeats few of them.
const foldedCodePoints = new Map<string, string>();
const FOLD_CACHE_LIMIT = 4096;

function foldCodePoint(codePoint: string): string {
  const known = foldedCodePoints.get(codePoint);
  if (known !== undefined) return known;
  const folded = foldLetters(codePoint);
  if (foldedCodePoints.size < FOLD_CACHE_LIMIT) foldedCodePoints.set(codePoint, folded);
  return folded;
}

function foldLine(line: string): FoldedLine {
  // NFC first, so a letter and its combining marks are one character of the original text.
  const text = line.normalize("NFC");
  const chars: string[] = [];
  const origin: number[] = [];
  let index = 0;
  for (const codePoint of text) {
    for (const char of foldCodePoint(codePoint)) {
      chars.push(char);
      origin.push(index);
    }
    index += codePoint.length;
  }
  origin.push(text.length);
  return { text, chars, origin };
}

/**
 * Where a label ends if the line spells it from `start`. Where the label has a space or
 * punctuation, the line may have any run of them, or none (`T.C.` matches `TC`, `Fakülte /
 * Yüksekokul` matches `Fakülte/Yüksekokul`), but never a colon; within a word the letters
 * must follow each other, so `İl ÇEŞME` is not `İlçe`. The label must end at a word boundary,
 * so `Adı` does not match `Adil`.
 */
function matchEnd(line: FoldedLine, start: number, letters: CompiledLabel<string>["letters"]): number | undefined {
  let i = start;
  for (const { letter, afterBreak } of letters) {
    if (afterBreak) {
      while (i < line.chars.length && line.chars[i] !== ":" && !isLetterOrDigit(line.chars[i])) i++;
    }
    if (line.chars[i] !== letter) return undefined;
    i++;
  }
  return isLetterOrDigit(line.chars[i]) ? undefined : i;
}

function longestLabel<Key extends string>(
  line: FoldedLine,
  start: number,
  labels: readonly CompiledLabel<Key>[],
): { key: Key; end: number } | undefined {
  for (const label of labels) {
    const end = matchEnd(line, start, label.letters);
    if (end !== undefined) return { key: label.key, end };
  }
  return undefined;
}

function nextNonSpace(line: FoldedLine, from: number): string | undefined {
  let i = from;
  while (line.chars[i] === " ") i++;
  return line.chars[i];
}

/**
 * Cuts a line into the text before its first label (`key` undefined) and one segment per
 * label. A label counts at the start of the line, or later on it only when a space precedes it
 * and a colon follows it: a second `label : value` pair printed on the same line. Without the
 * colon, a label's words inside a value stay part of the value.
 */
function segments<Key extends string>(line: FoldedLine, labels: readonly CompiledLabel<Key>[]): Segment<Key>[] {
  const first = longestLabel(line, 0, labels);
  const found: Segment<Key>[] = [{ key: first?.key, from: first?.end ?? 0, to: line.chars.length }];
  for (let i = found[0]?.from ?? 0; i < line.chars.length; i++) {
    if (line.chars[i - 1] !== " " || !isLetterOrDigit(line.chars[i])) continue;
    const next = longestLabel(line, i, labels);
    if (!next || nextNonSpace(line, next.end) !== ":") continue;
    const current = found[found.length - 1];
    if (current) current.to = i;
    found.push({ key: next.key, from: next.end, to: line.chars.length });
    i = next.end - 1;
  }
  return found;
}

function segmentText(line: FoldedLine, segment: Segment<string>): string {
  const raw = line.text.slice(line.origin[segment.from], line.origin[segment.to]);
  return collapseWhitespace(raw.replace(LEADING_SEPARATORS, ""));
}

/** Whether a value says anything: a lone `-` or `...` is how a certificate leaves a field blank. */
function printed(value: string): boolean {
  return [...value].some(isLetterOrDigit);
}

/**
 * Each field's value as printed (trimmed, inner whitespace collapsed, NFC), read from the
 * lines of a document. Labels are matched at the start of a line, the longest first; a value
 * is the rest of the line, after an optional colon. When a label ends its line with no value,
 * the next line's text before any label is its value; a value that ends with `/` (a long unit
 * path wrapped) continues on the next line the same way. When a field is printed more than
 * once, its first value wins. Fields not printed are absent. Never throws.
 */
export function readLabelled<Key extends string>(
  lines: readonly string[],
  labels: LabelTable<Key>,
): Partial<Record<Key, string>> {
  const compiled = compile(labels);
  const entries: { key: Key; value: string }[] = [];
  // The entry a next line may still complete: blank, or a path ending with `/`.
  let open: { key: Key; value: string } | undefined;
  for (const rawLine of lines) {
    const line = foldLine(String(rawLine));
    const parts = segments(line, compiled);
    const lead = parts[0] && parts[0].key === undefined ? segmentText(line, parts[0]) : "";
    const continued = open && printed(lead) ? open : undefined;
    open = undefined;
    if (continued) {
      continued.value = continued.value === "" ? lead : `${continued.value} ${lead}`;
      if (continued.value.endsWith("/")) open = continued;
    }
    for (const part of parts) {
      if (part.key === undefined) continue;
      const entry = { key: part.key, value: segmentText(line, part) };
      entries.push(entry);
      open = entry.value === "" || entry.value.endsWith("/") ? entry : undefined;
    }
  }
  const values: Partial<Record<Key, string>> = {};
  for (const { key, value } of entries) {
    if (values[key] === undefined && printed(value)) values[key] = value;
  }
  return values;
}
