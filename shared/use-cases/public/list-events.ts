/** An app's events of the last 30 days in the order they happened: how a client catches up on missed webhooks. */
import { deterministicId } from "../../domain/ids.ts";
import { EVENTS_LIST_DAYS } from "../../domain/searches.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EventStore } from "../../ports/event-store.ts";

export async function listEvents(
  deps: { events: Pick<EventStore, "eventsForApp">; clock: Clock },
  appId: string,
  query: { after?: string; limit: number },
): Promise<{ data: unknown[]; next_cursor: string | null }> {
  // Event ids begin with their time, so the oldest event still listed bounds them from below,
  // whether or not the table has yet removed the older ones.
  const floor = deterministicId("event", deps.clock.now().getTime() - EVENTS_LIST_DAYS * 86400 * 1000, "").slice(
    0,
    "evt_".length + 10,
  );
  const after = query.after !== undefined && query.after > floor ? query.after : floor;
  const events = await deps.events.eventsForApp(appId, after, query.limit);
  const last = events.at(-1);
  return {
    // The exact bodies the webhooks carried.
    data: events.map((event) => JSON.parse(event.body) as unknown),
    next_cursor: events.length === query.limit && last ? last.event_id : null,
  };
}
