/**
 * Cognito's lockout after failed sign-ins: five wrong passwords are allowed; the fifth and each
 * one after it lock the user out for 2^(n-5) seconds (n failures so far: 1 s, 2 s, 4 s, ... up to
 * 15 minutes). An attempt while locked out answers "Password attempts exceeded" without looking
 * at the password, and does not lengthen the next lockout. A sign-in with the right password
 * once no lockout runs, or 15 minutes without any attempt, start over from nothing.
 */
import { z } from "zod";

export const failedSignInsSchema = z.object({
  /** Wrong passwords since the last fresh start; attempts refused while locked out are not counted. */
  count: z.number().int().min(1),
  /** Epoch milliseconds of the last attempt, refused ones included. */
  lastAttemptAt: z.number(),
  /** Epoch milliseconds until which every attempt is refused. */
  lockedUntil: z.number().optional(),
});
export type FailedSignIns = z.infer<typeof failedSignInsSchema>;

const ALLOWED_FAILURES = 5;
const LONGEST_LOCKOUT_MS = 15 * 60_000;
const FRESH_START_AFTER_MS = 15 * 60_000;

/** The record as it stands at `now`: none once 15 minutes passed without an attempt. */
export function standing(record: FailedSignIns | undefined, now: number): FailedSignIns | undefined {
  return record && now - record.lastAttemptAt < FRESH_START_AFTER_MS ? record : undefined;
}

export function lockedOut(record: FailedSignIns | undefined, now: number): boolean {
  return record?.lockedUntil !== undefined && now < record.lockedUntil;
}

/** After one more wrong password: from the fifth on, a lockout twice as long as the one before. */
export function afterFailure(record: FailedSignIns | undefined, now: number): FailedSignIns {
  const count = (record?.count ?? 0) + 1;
  if (count < ALLOWED_FAILURES) return { count, lastAttemptAt: now };
  const lockout = Math.min(1000 * 2 ** (count - ALLOWED_FAILURES), LONGEST_LOCKOUT_MS);
  return { count, lastAttemptAt: now, lockedUntil: now + lockout };
}

/** After an attempt refused while locked out: it counts as an attempt, not as a failure. */
export function afterRefusal(record: FailedSignIns, now: number): FailedSignIns {
  return { ...record, lastAttemptAt: now };
}
