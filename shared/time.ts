/** Timestamps on the wire and in the tables: UTC, whole seconds, `2026-11-22T12:00:00Z`. */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** The current time truncated to whole seconds, so stored and computed times agree. */
export function nowSeconds(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}
