/**
 * A document's issue date as printed beside its label: `DD.MM.YYYY`, maybe followed by a time.
 */
import { isoDate } from "./values.ts";

const WITH_TIME = /^(.*?\d{4})\s*(?:-\s*)?\d{1,2}\s*:\s*\d{2}(?:\s*:\s*\d{2})?$/;

/** A printed issue date as ISO `YYYY-MM-DD`, with any time after it set aside; undefined when malformed. */
export function issueDate(printed: string): string | undefined {
  const date = WITH_TIME.exec(printed.trim())?.[1] ?? printed;
  return isoDate(date);
}
