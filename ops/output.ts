/** The readable form of the ops command's answers: aligned fields and tables. */

/** What a command answers: `json` for `--json`, `text` for people. */
export interface Output {
  json: unknown;
  text: string;
  /** The command's exit status when it is not success: a finding, not a failure to run. */
  exit?: number;
}

const shown = (value: string | null | undefined) => (value === null || value === undefined ? "-" : value);

/** `label  value` lines, labels padded to one width. */
export function fields(rows: [string, string | null | undefined][], indent = "  "): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${shown(value)}`).join("\n");
}

/** A table with a header row; `columns` maps each header to a row's value. */
export function table<T>(columns: [string, (row: T) => string | null | undefined][], rows: T[]): string {
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, cell]) => shown(cell(row))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? "").length)));
  return cells
    .map((line) =>
      line
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
