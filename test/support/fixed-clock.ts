import type { Clock } from "#shared/ports/clock";

/** The instant most tests start at. */
export const T0 = "2026-11-22T12:00:00Z";

function wholeSecondsOf(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || ms % 1000 !== 0) throw new Error(`Not a time in whole seconds: ${iso}`);
  return ms;
}

/**
 * A Clock that says what the test tells it and moves only when told to: in whole seconds, as
 * the port promises (a fraction of a second is refused rather than quietly rounded).
 */
export class FixedClock implements Clock {
  private current: number;

  constructor(iso: string = T0) {
    this.current = wholeSecondsOf(iso);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(iso: string): void {
    this.current = wholeSecondsOf(iso);
  }

  advance(seconds: number): void {
    if (!Number.isInteger(seconds)) throw new Error(`Not a whole number of seconds: ${seconds}`);
    this.current += seconds * 1000;
  }
}
