import type { DocumentType } from "../../domain/document-types.ts";
import type { Environment } from "../../domain/environments.ts";
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import { type ReviewReason, reasonMessage } from "../../domain/reasons.ts";
import type { ReviewEntry, ReviewPage } from "../../domain/responses/review.ts";
import { currentClaim, type ReviewFilter, reviewPositionBetween } from "../../domain/review.ts";
import { REVIEW_WINDOW_SECONDS } from "../../domain/state.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { VerificationItem } from "../../domain/verification.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { ReviewPosition, VerificationStore } from "../../ports/verification-store.ts";
import { appNameOf } from "./app-name.ts";

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

/** Each UTC day from the one of `from` to the one of `to`, both included. */
function daysBetween(from: number, to: number): string[] {
  const days: string[] = [];
  for (let day = from; utcDay(day) <= utcDay(to); day += DAY_MS) days.push(utcDay(day));
  return days;
}

function entryOf(item: VerificationItem, appName: string, now: string): ReviewEntry {
  const reason = item.review_reason ?? "issuer_unavailable";
  return {
    verification_id: item.verification_id,
    app_id: item.app_id,
    app_name: appName,
    document_type: item.document_type,
    reason_code: reason,
    message: reasonMessage(reason),
    waiting_since: item.review_required_at ?? item.updated_at,
    review_deadline: item.review_deadline ?? item.updated_at,
    claim: currentClaim(item, now),
  };
}

/** The name of each app of `items`, read once per app; an app with no name, or gone, by its id. */
async function appNames(apps: Pick<AppStore, "getApp">, items: VerificationItem[]): Promise<Map<string, string>> {
  const ids = [...new Set(items.map((item) => item.app_id))];
  const names = await Promise.all(ids.map((id) => appNameOf(apps, id)));
  return new Map(ids.map((id, n) => [id, names[n] ?? id]));
}

/**
 * Up to `limit` verifications in review that match `filter`, from `days` in order, after `after`
 * (on the first of them) when given; `more` when a full page may have a next one.
 */
async function readPage(
  verifications: Pick<VerificationStore, "inReviewOn">,
  filter: ReviewFilter,
  limit: number,
  days: string[],
  after: ReviewPosition | undefined,
): Promise<{ items: VerificationItem[]; more: boolean }> {
  const items: VerificationItem[] = [];
  let position = after && { deadline: after.deadline, id: after.id };
  for (const [n, day] of days.entries()) {
    const page = await verifications.inReviewOn(day, filter, limit - items.length, position);
    items.push(...page.items);
    position = undefined;
    // Full: a next page exists unless this was the last item of the last day.
    if (items.length === limit) return { items, more: page.more || n < days.length - 1 };
  }
  return { items, more: false };
}

/**
 * The verifications waiting for a reviewer, oldest first, all of them or those of one document
 * type or one reason, with how many wait in all and each one's app by name. Every review window
 * has the same length, so the earliest deadline is the longest wait: the queue reads the
 * review-deadline index day by day, from the day before yesterday (windows the tick has not closed
 * yet) to the last day a window opened now can close, and counts what waits over those same days.
 * A cursor goes on from its position within those days (or the day before them, for one handed
 * out yesterday), asked with the filters it was handed out with; any other is `invalid_cursor`,
 * so no request reads more than those few days.
 */
export async function reviewQueue(
  deps: {
    verifications: Pick<VerificationStore, "inReviewOn" | "countInReviewOn">;
    apps: Pick<AppStore, "getApp">;
    clock: Clock;
    environment: Environment;
  },
  input: { limit: number; cursor?: string; document_type?: DocumentType; reason_code?: ReviewReason },
): Promise<ReviewPage> {
  const now = deps.clock.now();
  const filter: ReviewFilter = { documentType: input.document_type, reason: input.reason_code };
  const earliest = now.getTime() - OVERDUE_DAYS * DAY_MS;
  const lastDay = now.getTime() + REVIEW_WINDOW_SECONDS[deps.environment] * 1000 + DAY_MS;
  const after =
    input.cursor === undefined
      ? undefined
      : decodeCursor(
          input.cursor,
          reviewPositionBetween(utcDay(earliest - CURSOR_DAYS * DAY_MS), utcDay(lastDay), filter),
        );
  const [counts, { items, more }] = await Promise.all([
    Promise.all(daysBetween(earliest, lastDay).map((day) => deps.verifications.countInReviewOn(day, filter))),
    readPage(
      deps.verifications,
      filter,
      input.limit,
      daysBetween(after ? Date.parse(after.deadline) : earliest, lastDay),
      after,
    ),
  ]);
  const names = await appNames(deps.apps, items);
  const data = items.map((item) => entryOf(item, names.get(item.app_id) ?? item.app_id, isoSeconds(now)));
  const last = data.at(-1);
  return {
    data,
    next_cursor:
      more && last
        ? encodeCursor({
            deadline: last.review_deadline,
            id: last.verification_id,
            document_type: input.document_type,
            reason_code: input.reason_code,
          })
        : null,
    total: counts.reduce((sum, count) => sum + count, 0),
  };
}
