/**
 * A page's text runs as printed lines. A PDF holds text as runs placed at coordinates, not as
 * lines: a generator may split one value into several runs, print a label and its value as two
 * columns, or draw runs in any order. Runs on one baseline make one line, read left to right.
 */

/** One run of text in page coordinates, y growing downwards, as it is shown (rotation applied). */
export interface TextRun {
  text: string;
  /** Where the run starts. */
  x: number;
  /** The baseline. */
  y: number;
  /** The run's advance along the baseline. */
  width: number;
  /** The font's height on the page. */
  size: number;
  /** Whether the baseline runs left to right across the page; a rotated run makes a line of its own. */
  horizontal: boolean;
}

/** Runs whose baselines differ by less than this share of the smaller font height share a line. */
const SAME_BASELINE = 0.4;

/**
 * Two runs with more space between them than this share of the font height are separate
 * words: a space in a text font is a quarter to a third of its height, while runs a generator
 * split inside a word touch (or overlap by a rounding error).
 */
const WORD_GAP = 0.15;

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

function joined(runs: TextRun[]): string {
  const [first, ...rest] = [...runs].sort((a, b) => a.x - b.x);
  if (!first) return "";
  // Parts joined once at the end: appending to one string and reading its last character
  // each time would copy the whole string per run.
  const parts = [first.text];
  let last = first;
  let end = first.x + first.width;
  for (const run of rest) {
    const gap = run.x - end;
    const spaced = isSpace(last.text.at(-1)) || isSpace(run.text[0]);
    if (!spaced && gap > WORD_GAP * Math.min(last.size, run.size)) parts.push(" ");
    parts.push(run.text);
    last = run;
    end = Math.max(end, run.x + run.width);
  }
  return parts.join("").replace(/\s+/g, " ").trim();
}

/** The printed lines, top to bottom; blank lines are left out. */
export function linesOf(runs: readonly TextRun[]): string[] {
  const groups: { y: number; runs: TextRun[] }[] = [];
  const sorted = runs.filter((run) => run.text.length > 0).sort((a, b) => a.y - b.y || a.x - b.x);
  let current: { y: number; size: number; runs: TextRun[] } | undefined;
  for (const run of sorted) {
    if (!run.horizontal) {
      groups.push({ y: run.y, runs: [run] });
      continue;
    }
    // Compared with the line's first run, so a line cannot creep down the page run by run.
    if (current && Math.abs(run.y - current.y) <= SAME_BASELINE * Math.min(current.size, run.size)) {
      current.runs.push(run);
      continue;
    }
    current = { y: run.y, size: run.size, runs: [run] };
    groups.push(current);
  }
  return groups
    .sort((a, b) => a.y - b.y)
    .map((group) => joined(group.runs))
    .filter((line) => line.length > 0);
}
