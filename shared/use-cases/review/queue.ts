import type { Environment } from "../../domain/environments.ts";
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import { reasonMessage } from "../../domain/reasons.ts";
import type { ReviewEntry } from "../../domain/responses/review.ts";
import { currentClaim, reviewPositionBetween } from "../../domain/review.ts";
import { REVIEW_WINDOW_SECONDS } from "../../domain/state.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How far behind now the queue reads. The tick ends every review within a minute of its
 * deadline (`closeOverdueReviews`), so a window still open behind now is one the tick has not
 * reached yet, after an outage: the queue reads from the day before yesterday.
 */
const OVERDUE_DAYS = 2;

/** How long a cursor stays good: one handed out up to a day ago still names a day the queue reads. */
const CURSOR_DAYS = 1;

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function entryOf(item: VerificationItem, now: string): ReviewEntry {
  const reason = item.review_reason ?? "issuer_unavailable";
  return {
    verification_id: item.verification_id,
    app_id: item.app_id,
    document_type: item.document_type,
    reason_code: reason,
    message: reasonMessage(reason),
    waiting_since: item.review_required_at ?? item.updated_at,
    review_deadline: item.review_deadline ?? item.updated_at,
    claim: currentClaim(item, now),
  };
}

/**
 * The verifications waiting for a reviewer, oldest first. Every review window has the same
 * length, so the earliest deadline is the longest wait: the queue reads the review-deadline
 * index day by day, from the day before yesterday (windows the tick has not closed yet) to the
 * last day a window opened now can close. A cursor goes on from its position within those days
 * (or the day before them, for one handed out yesterday); any other is `invalid_cursor`, so no
 * request reads more than those few days.
 */
export async function reviewQueue(
  deps: { verifications: Pick<VerificationStore, "inReviewOn">; clock: Clock; environment: Environment },
  input: { limit: number; cursor?: string },
): Promise<{ data: ReviewEntry[]; next_cursor: string | null }> {
  const now = deps.clock.now();
  const earliest = now.getTime() - OVERDUE_DAYS * DAY_MS;
  const lastDay = now.getTime() + REVIEW_WINDOW_SECONDS[deps.environment] * 1000 + DAY_MS;
  const after =
    input.cursor === undefined
      ? undefined
      : decodeCursor(input.cursor, reviewPositionBetween(utcDay(earliest - CURSOR_DAYS * DAY_MS), utcDay(lastDay)));
  const firstDay = after ? Date.parse(after.deadline) : earliest;
  const entries: ReviewEntry[] = [];
  let position = after;
  for (let day = firstDay; utcDay(day) <= utcDay(lastDay); day += DAY_MS) {
    const page = await deps.verifications.inReviewOn(utcDay(day), input.limit - entries.length, position);
    entries.push(...page.items.map((item) => entryOf(item, isoSeconds(now))));
    position = undefined;
    const last = entries.at(-1);
    if (entries.length === input.limit && last) {
      // Full: a next page exists unless this was the last item of the last day.
      const more = page.more || utcDay(day) < utcDay(lastDay);
      return {
        data: entries,
        next_cursor: more ? encodeCursor({ deadline: last.review_deadline, id: last.verification_id }) : null,
      };
    }
  }
  return { data: entries, next_cursor: null };
}
