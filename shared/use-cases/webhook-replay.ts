/** What operators do with delivered and parked events: read the attempts, send one again. */
import { NotFoundError } from "../domain/errors.ts";
import { isoSeconds } from "../domain/time.ts";
import type { EventItem } from "../domain/webhook-events.ts";
import type { Clock } from "../ports/clock.ts";
import type { EventStore } from "../ports/event-store.ts";

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

/** An attempt as operators see it. */
export interface DeliveryView {
  attempted_at: string;
  event_id: string;
  attempt: number;
  url: string;
  outcome: "delivered" | "failed";
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/** The app's most recent delivery attempts, newest first. */
export async function deliveryHistory(
  deps: { events: Pick<EventStore, "attemptsForApp"> },
  appId: string,
  limit: number,
): Promise<DeliveryView[]> {
  return (await deps.events.attemptsForApp(appId, limit)).map((attempt) => ({
    attempted_at: attempt.attempted_at,
    event_id: attempt.event_id,
    attempt: attempt.attempt,
    url: attempt.url,
    outcome: attempt.outcome,
    status_code: attempt.status_code ?? null,
    latency_ms: attempt.latency_ms,
    error: attempt.error ?? null,
  }));
}
