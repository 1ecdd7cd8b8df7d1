/**
 * The lines two copies of a document do not share: each copy's text runs (as pdf.js reads them)
 * gathered into lines, the lines compared without their whitespace, and in each line one copy
 * lacks, the runs the other copy does not print. No DOM here: the diff is plain data.
 */

/** A run of text as pdf.js gives it: its text, where its baseline starts and its size, in the page's units (y up). */
export interface TextRun {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One line of a page: its text, whitespace normalised, and its runs from left to right. */
export interface TextLine {
  page: number;
  text: string;
  runs: TextRun[];
}

/** A line one copy prints and the other does not, with the runs to mark in it. */
export interface LineDifference {
  line: TextLine;
  marked: TextRun[];
}

const compact = (text: string) => text.replace(/\s+/g, "");

/** Runs further apart than this share of their height are separate words. */
const WORD_GAP = 0.15;

/** The page's runs as lines, top to bottom: runs whose baselines lie within half a run's height share a line. */
export function linesOf(page: number, runs: readonly TextRun[]): TextLine[] {
  const sorted = runs.filter((run) => run.text.trim() !== "").sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: TextRun[][] = [];
  for (const run of sorted) {
    const line = lines.at(-1);
    const first = line?.[0];
    if (line && first && Math.abs(first.y - run.y) <= Math.max(first.height, run.height) / 2) line.push(run);
    else lines.push([run]);
  }
  return lines.map((line) => {
    line.sort((a, b) => a.x - b.x);
    let text = "";
    let end: number | undefined;
    for (const run of line) {
      if (end !== undefined && run.x - end > run.height * WORD_GAP) text += " ";
      text += run.text;
      end = run.x + run.width;
    }
    return { page, text: text.replace(/\s+/g, " ").trim(), runs: line };
  });
}

/** The lines of `ours` that `theirs` lacks, each line of theirs matching at most one of ours. */
function unmatched(ours: readonly TextLine[], theirs: readonly TextLine[]): TextLine[] {
  const left = new Map<string, number>();
  for (const line of theirs) left.set(compact(line.text), (left.get(compact(line.text)) ?? 0) + 1);
  return ours.filter((line) => {
    const count = left.get(compact(line.text)) ?? 0;
    if (count > 0) left.set(compact(line.text), count - 1);
    return count === 0;
  });
}

/** In each line, the runs the other copy's differing lines do not print (the whole line when they all appear there). */
function marked(lines: TextLine[], others: TextLine[]): LineDifference[] {
  const printed = others.map((line) => compact(line.text)).join("\n");
  return lines.map((line) => {
    const own = line.runs.filter((run) => !printed.includes(compact(run.text)));
    return { line, marked: own.length > 0 ? own : line.runs };
  });
}

/** The lines only the upload prints and those only the issuer's copy prints, in page order. */
export function lineDifferences(
  upload: readonly TextLine[],
  issuer: readonly TextLine[],
): { upload: LineDifference[]; issuer: LineDifference[] } {
  const onlyUpload = unmatched(upload, issuer);
  const onlyIssuer = unmatched(issuer, upload);
  return { upload: marked(onlyUpload, onlyIssuer), issuer: marked(onlyIssuer, onlyUpload) };
}
