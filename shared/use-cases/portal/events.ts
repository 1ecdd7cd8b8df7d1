/**
 * An app's events as its developers debug them: what each sent (payload and headers) and every
 * attempt, numbered across rounds, delivered or not, also events that never had a destination;
 * and sending one now, which is the replay.
 */
import { InvalidInputError } from "../../domain/errors.ts";
import { firstIdAt } from "../../domain/ids.ts";
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { PortalCaller } from "../../domain/organizations.ts";
import { appEventPositionSchema } from "../../domain/portal.ts";
import type { AppEvent } from "../../domain/responses/portal.ts";
import { type AttemptItem, type EventItem, type EventType, KEEP_EVENTS_DAYS } from "../../domain/webhook-events.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EventStore } from "../../ports/event-store.ts";
import { deliveryView } from "../webhooks/replay.ts";
import { recordAction } from "./audit-records.ts";
import { memberApp } from "./member-app.ts";

/** What the body is as JSON; a body that is not JSON (none is written so) as its text. */
function payloadOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function appEventView(event: EventItem, attempts: AttemptItem[]): AppEvent {
  return {
    event_id: event.event_id,
    type: event.type,
    created_at: event.created_at,
    verification_id: event.verification_id ?? null,
    status: event.status,
    next_attempt_at: event.status === "pending" ? (event.next_attempt_at ?? null) : null,
    payload: payloadOf(event.body),
    // Each attempt as the deliveries log shows it, with the headers it sent.
    attempts: attempts.map((attempt) => {
      const {
        event_id: _event,
        event_type: _type,
        ...delivery
      } = deliveryView(event.event_id, attempt.attempt, attempt);
      return { ...delivery, headers: attempt.headers ?? null };
    }),
  };
}

type AppEventsQuery = {
  type?: EventType;
  after?: string;
  verification_id?: string;
  limit: number;
  cursor?: string;
};

type EventsPage = { items: EventItem[]; last: string | undefined };

/** The app's events of the last `KEEP_EVENTS_DAYS` days (or since `after`), newest first. */
async function recentEvents(
  deps: { events: Pick<EventStore, "recentEventsForApp">; clock: Clock },
  appId: string,
  query: AppEventsQuery,
): Promise<EventsPage> {
  const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor, appEventPositionSchema).event_id;
  const oldest = deps.clock.now().getTime() - KEEP_EVENTS_DAYS * 86_400_000;
  const from = Math.max(oldest, query.after === undefined ? oldest : Date.parse(query.after));
  return deps.events.recentEventsForApp(
    appId,
    { since: firstIdAt("event", from), type: query.type },
    query.limit,
    before,
  );
}

/**
 * One verification's events of this app in the order they happened: its timeline, a handful of
 * events (one per change it makes), so one page; a cursor does not go with it.
 */
async function timeline(
  deps: { events: Pick<EventStore, "eventsOf"> },
  appId: string,
  query: AppEventsQuery & { verification_id: string },
): Promise<EventsPage> {
  if (query.cursor !== undefined) {
    throw new InvalidInputError(
      "invalid_cursor",
      "a verification's timeline is one page: send no cursor with verification_id",
    );
  }
  const events = await deps.events.eventsOf(query.verification_id);
  const items = events.filter(
    (event) =>
      event.app_id === appId &&
      (query.type === undefined || event.type === query.type) &&
      (query.after === undefined || event.created_at >= query.after),
  );
  return { items: items.slice(0, query.limit), last: undefined };
}

/**
 * The app's events (all of the last `KEEP_EVENTS_DAYS` days, or one verification's), each with
 * its attempts. Payloads carry personal data: the read is recorded.
 */
export async function memberAppEvents(
  deps: {
    apps: Pick<AppStore, "getApp">;
    events: Pick<EventStore, "recentEventsForApp" | "attemptsOf" | "eventsOf">;
    audit: Pick<AuditTrail, "append">;
    clock: Clock;
  },
  caller: PortalCaller,
  appId: string,
  query: AppEventsQuery,
): Promise<{ data: AppEvent[]; next_cursor: string | null }> {
  await memberApp(deps.apps, caller.member, appId);
  const { items, last } =
    query.verification_id === undefined
      ? await recentEvents(deps, appId, query)
      : await timeline(deps, appId, { ...query, verification_id: query.verification_id });
  const data = await Promise.all(
    items.map(async (event) => appEventView(event, await deps.events.attemptsOf(event.event_id))),
  );
  await recordAction(deps, caller, {
    action: "events.viewed",
    app_id: appId,
    ...(query.verification_id === undefined ? {} : { verification_id: query.verification_id }),
    detail: { results: String(data.length) },
  });
  return { data, next_cursor: last ? encodeCursor({ event_id: last }) : null };
}
