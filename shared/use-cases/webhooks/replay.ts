/** What operators do with delivered and parked events: read the attempts, send one again. */

import { type AuditContext, auditRecord } from "../../domain/audit.ts";
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
  /** Who replays: the new round is written with the record of it. */
  by?: AuditContext,
): Promise<EventItem> {
  const event = await deps.events.get(eventId);
  if (!event) throw new NotFoundError("event_not_found", `No event ${eventId}`);
  const now = deps.clock.now();
  return deps.events.requeue(
    event,
    isoSeconds(now),
    by &&
      auditRecord(by, now, {
        action: "event.replayed",
        app_id: event.app_id,
        ...(event.verification_id ? { verification_id: event.verification_id } : {}),
        detail: { event_id: eventId },
      }),
  );
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
    // Attempts recorded before the code was kept: one that was answered failed by its status.
    error_code:
      record.error_code ?? (record.outcome === "failed" && record.status_code !== undefined ? "http_status" : null),
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
