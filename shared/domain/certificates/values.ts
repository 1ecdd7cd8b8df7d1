/**
 * The value rules both certificate layouts share: dates, small counts and status words.
 */
import { foldTurkish } from "./turkish.ts";

// Day and month may lose their leading zero in a text layer; the year never has fewer digits.
const PRINTED_DATE = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/;
/** Certificates concern living people and their enrolments: years outside these are misreadings. */
const YEARS = { first: 1900, last: 2199 } as const;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A printed `DD.MM.YYYY` date as ISO `YYYY-MM-DD`, or undefined when it is not a date of the
 * calendar (`31.02.2024`). Spaces anywhere are ignored, since text runs split dates too; `/`
 * and `-` are accepted in place of the dots.
 */
export function isoDate(printed: string): string | undefined {
  const match = PRINTED_DATE.exec(printed.replace(/\s+/g, ""));
  if (!match) return undefined;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < YEARS.first || year > YEARS.last || month < 1 || month > 12) return undefined;
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * A one-digit count from 1 to 9 printed alone or followed by one of `words` (folded, e.g.
 * `yil` for `4 Yıl`), with an optional dot after the number (`3. Sınıf`).
 */
export function printedCount(printed: string, words: readonly string[]): number | undefined {
  const folded = foldTurkish(printed);
  const match = /^([1-9])\s*\.?\s*(.*)$/.exec(folded);
  if (!match) return undefined;
  const rest = match[2] ?? "";
  return rest === "" || words.includes(rest) ? Number(match[1]) : undefined;
}

/** Whether a printed status is one of `meanings` once case, Turkish letters and spacing are set aside. */
export function statusIs(printed: string, meanings: readonly string[]): boolean {
  const folded = foldTurkish(printed);
  return meanings.some((meaning) => foldTurkish(meaning) === folded);
}

/** A printed value through `parse`; null when it is not printed or does not parse. */
export function parsed<T>(printed: string | undefined, parse: (printed: string) => T | undefined): T | null {
  return printed === undefined ? null : (parse(printed) ?? null);
}
