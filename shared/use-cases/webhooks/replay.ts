/** What operators do with delivered and parked events: read the attempts, send one again. */
import { NotFoundError } from "../../domain/errors.ts";
import type { Delivery } from "../../domain/responses/portal.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { EventItem } from "../../domain/webhook-events.ts";
import type { Clock } from "../../ports/clock.ts";
import type { AttemptRecord, EventStore } from "../../ports/event-store.ts";

/**
 * Sends a parked or delivered event again, as a new round of attempts due now: the tick
 * makes them, from where webhooks are always sent, with the usual schedule if they fail.
 */
export async function replayEvent(
  deps: { events: Pick<EventStore, "get" | "requeue">; clock: Clock },
  eventId: string,
): Promise<EventItem> {
  const event = await deps.events.get(eventId);
  if (!event) throw new NotFoundError("event_not_found", `No event ${eventId}`);
  return deps.events.requeue(event, isoSeconds(deps.clock.now()));
}

/** An attempt as operators and the portal show it: the portal's wire shape of a delivery. */
export type DeliveryView = Delivery;

export function deliveryView(eventId: string, attempt: number, record: AttemptRecord): DeliveryView {
  return {
    event_id: eventId,
    event_type: record.event_type ?? null,
    attempt,
    attempted_at: record.attempted_at,
    url: record.url,
    outcome: record.outcome,
    response_status: record.status_code ?? null,
    latency_ms: record.latency_ms,
    response_body: record.response_body ?? null,
    error: record.error ?? null,
  };
}

/** The app's most recent delivery attempts, newest first. */
export async function deliveryHistory(
  deps: { events: Pick<EventStore, "attemptsForApp"> },
  appId: string,
  limit: number,
): Promise<DeliveryView[]> {
  const { items } = await deps.events.attemptsForApp(appId, {}, limit);
  return items.map((item) => deliveryView(item.event_id, item.attempt, item));
}
