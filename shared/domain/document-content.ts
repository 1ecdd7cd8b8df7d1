/**
 * Whether an upload says what the issuer's copy says. A PDF the holder opened and saved again
 * (another writer, other bytes) keeps its text; an edited one does not. Text is compared page by
 * page after normalisation: Unicode NFC, and no whitespace at all, so neither how a writer splits
 * a line into text runs nor the spaces it sets between them counts.
 */

/** A document's text as the reader gives it: its lines top to bottom, and how many of them each page holds. */
export interface PagedText {
  lines: readonly string[];
  /** Lines per page, in page order; they add up to `lines.length`. */
  linesPerPage: readonly number[];
}

/** The lines each copy holds that the other does not, an identity number in them masked. */
export interface TextDifferences {
  only_in_upload: string[];
  only_in_issuer_copy: string[];
}

/** How many differing lines a verification keeps of each copy: enough to show where, bounded whatever is sent. */
export const MAX_DIFFERING_LINES = 20;
/** How much of a differing line is kept. */
const MAX_LINE_LENGTH = 200;

const WHITESPACE = /\s+/gu;
/** An 11-digit run: what an identity number looks like wherever a line prints it. */
const ELEVEN_DIGITS = /(?<!\d)(\d{2})\d{7}(\d{2})(?!\d)/g;

function normalisedLine(line: string): string {
  return line.normalize("NFC").replace(WHITESPACE, "");
}

/** Each page's text, normalised and joined: what two copies must share page by page. */
function pageTexts(text: PagedText): string[] {
  const pages: string[] = [];
  let at = 0;
  for (const count of text.linesPerPage) {
    pages.push(
      text.lines
        .slice(at, at + count)
        .map(normalisedLine)
        .join(""),
    );
    at += count;
  }
  return pages;
}

/** Whether two documents print the same text on every page, after normalisation. */
export function sameText(upload: PagedText, issuerCopy: PagedText): boolean {
  const a = pageTexts(upload);
  const b = pageTexts(issuerCopy);
  return a.length === b.length && a.every((page, index) => page === b[index]);
}

/** A line as a verification keeps it: trimmed, bounded, any 11-digit run masked as `12*******34`. */
function keptLine(line: string): string {
  const trimmed = line.normalize("NFC").trim().replace(WHITESPACE, " ").slice(0, MAX_LINE_LENGTH);
  return trimmed.replace(ELEVEN_DIGITS, (_, first: string, last: string) => `${first}${"*".repeat(7)}${last}`);
}

/** The lines of `from` that `other` lacks, each counted as often as it is printed. */
function linesLacking(from: readonly string[], other: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const line of other) {
    const key = normalisedLine(line);
    left.set(key, (left.get(key) ?? 0) + 1);
  }
  const lacking: string[] = [];
  for (const line of from) {
    const key = normalisedLine(line);
    if (key === "") continue;
    const count = left.get(key) ?? 0;
    if (count > 0) left.set(key, count - 1);
    else if (lacking.length < MAX_DIFFERING_LINES) lacking.push(keptLine(line));
  }
  return lacking;
}

/** The lines one copy prints and the other does not, for the reviewer and the evidence. */
export function textDifferences(upload: PagedText, issuerCopy: PagedText): TextDifferences {
  return {
    only_in_upload: linesLacking(upload.lines, issuerCopy.lines),
    only_in_issuer_copy: linesLacking(issuerCopy.lines, upload.lines),
  };
}
