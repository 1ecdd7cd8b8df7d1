import { wholeSeconds } from "../domain/time.ts";
import type { Clock } from "../ports/clock.ts";

/** The process's clock (Date.now, so a test's fake timers move it too), in whole seconds. */
export const systemClock: Clock = { now: () => wholeSeconds(new Date()) };
