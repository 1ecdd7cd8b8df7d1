import type { AuditRecord } from "../domain/responses/audit.ts";
import type { AttemptItem, EventItem } from "../domain/webhook-events.ts";

/** What an attempt records of itself; the store adds its event and the attempt's number. */
export type AttemptRecord = Omit<AttemptItem, "event_id" | "attempt">;

/** What follows an attempt. */
export type AfterAttempt = { status: "delivered" | "parked" } | { status: "pending"; nextAttemptAt: string };

/** Where webhook events, their delivery schedule and their attempts are kept. */
export interface EventStore {
  /**
   * Writes the event, kept `KEEP_EVENTS_DAYS`, unless it exists: false when it was already
   * recorded. With `audit`, the record of the person who made it is written in the same write.
   */
  create(event: EventItem, audit?: AuditRecord): Promise<boolean>;
  /** Read consistently. */
  get(eventId: string): Promise<EventItem | undefined>;
  /** Pending events whose next attempt is due at `now`, oldest first. */
  due(now: string, limit: number): Promise<EventItem[]>;
  /**
   * Takes the due attempt for this caller: moves `next_attempt_at` to `leaseUntil` unless
   * another caller moved it first. False when someone else has it.
   */
  claim(event: EventItem, leaseUntil: string): Promise<boolean>;
  /**
   * Records an attempt and what follows it, together: delivered, parked, or pending again.
   * Recorded once: a second record of the same attempt number is refused.
   */
  recordAttempt(event: EventItem, attempt: AttemptRecord, next: AfterAttempt): Promise<void>;
  /** Marks an event that has nowhere to go: the app has no webhook destination. */
  markNoDestination(event: EventItem): Promise<void>;
  /** Starts a new round of attempts, the first due at `dueAt`; a person's replay written with its record. */
  requeue(event: EventItem, dueAt: string, audit?: AuditRecord): Promise<EventItem>;
  /**
   * Up to `limit` of an app's attempts, newest first, with `outcome` only when given, after the
   * cursor `after`; `last` is the cursor to go on from when more may follow. A cursor is opaque:
   * only a `last` this store handed out is taken, anything else is `invalid_cursor`.
   */
  attemptsForApp(
    appId: string,
    filter: { outcome?: AttemptItem["outcome"] },
    limit: number,
    after?: string,
  ): Promise<{ items: AttemptItem[]; last: string | undefined }>;
  /**
   * Up to `limit` of an app's events, newest first, from the event `since` on (an id, so a time:
   * ids sort by time), of `type` only when given, after the event `before` when going on; `last`
   * is where to go on from when more may follow.
   */
  recentEventsForApp(
    appId: string,
    filter: { since: string; type?: EventItem["type"] },
    limit: number,
    before?: string,
  ): Promise<{ items: EventItem[]; last: string | undefined }>;
  /** Every attempt of one event, in the order they were made. */
  attemptsOf(eventId: string): Promise<AttemptItem[]>;
  /** Up to `limit` of an app's events in the order they happened, after the event `afterId`. */
  eventsForApp(appId: string, afterId: string, limit: number): Promise<EventItem[]>;
  /** Every event kept about one verification, in the order of its changes. */
  eventsOf(verificationId: string): Promise<EventItem[]>;
  /** Replaces what an event's attempts send (and `GET /v1/events` lists); the rest of the event stays. */
  replaceBody(eventId: string, body: string): Promise<void>;
}
