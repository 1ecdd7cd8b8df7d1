/**
 * Time, one convention: the current time comes from a `Clock` (ports/clock.ts) as a Date in
 * whole seconds; timestamps on the wire and in the tables are UTC strings in whole seconds,
 * `2026-11-22T12:00:00Z`; epoch seconds appear only where DynamoDB's TTL wants them.
 */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** `date` truncated to whole seconds, so stored and computed times agree. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
