/** An organisation's webhook deliveries: a test event on request, the attempts made, a replay. */
import { auditRecord } from "../../domain/audit.ts";
import { NotFoundError, RateLimitedError, RefusedError } from "../../domain/errors.ts";
import { isId, newId } from "../../domain/ids.ts";
import type { Member, PortalCaller } from "../../domain/organizations.ts";
import type { TestEvent } from "../../domain/responses/events.ts";
import { SENDING_LIMITS, type SendingKind } from "../../domain/tenant-limits.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import { API_VERSION, type AttemptItem, type EventItem, TEST_EVENT_TYPE } from "../../domain/webhook-events.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DeliveryQueue } from "../../ports/delivery-queue.ts";
import type { EventStore } from "../../ports/event-store.ts";
import type { Log } from "../../ports/log.ts";
import type { SendingBudget } from "../../ports/sending-budget.ts";
import { attemptDelivery, FIRST_ATTEMPT_LEASE_SECONDS, type WebhookDeps } from "../webhooks/delivery.ts";
import { type DeliveryView, deliveryView, replayEvent } from "../webhooks/replay.ts";
import { memberApp } from "./member-app.ts";

/** What each kind of send by hand is called in a refusal: one, and several. */
const SENDS: Record<SendingKind, readonly [string, string]> = {
  test: ["test event", "test events"],
  manual: ["event sent or replayed by hand", "events sent or replayed by hand"],
};

/** Takes one send of `kind` for the app, or refuses it with the seconds to wait (`SENDING_LIMITS`). */
async function takeSend(
  deps: { sending: SendingBudget; clock: Clock },
  appId: string,
  kind: SendingKind,
): Promise<void> {
  const budget = await deps.sending.take(appId, kind, deps.clock.now());
  if (budget.taken) return;
  const { most, perSeconds } = SENDING_LIMITS[kind];
  throw new RateLimitedError(
    `An app may have ${most} ${SENDS[kind][most === 1 ? 0 : 1]} every ${perSeconds} s; retry after the time in Retry-After`,
    budget.retryAfterSeconds,
  );
}

/**
 * Sends a signed `webhook.test` event to the app's destination now, while the caller waits,
 * and answers how it went. Recorded like every event, so it is listed and can be replayed;
 * never retried on its own.
 */
export async function sendTestEvent(
  deps: WebhookDeps & { events: Pick<EventStore, "create">; sending: SendingBudget },
  caller: PortalCaller,
  appId: string,
): Promise<{ event_id: string; delivery: DeliveryView }> {
  const app = await memberApp(deps.apps, caller.member, appId);
  if (!app.webhook_url) throw new RefusedError("webhook_not_set", "Set a webhook URL for this app first");
  await takeSend(deps, app.app_id, "test");
  const now = deps.clock.now();
  const eventId = newId("event");
  const body: TestEvent = {
    id: eventId,
    type: TEST_EVENT_TYPE,
    created_at: isoSeconds(now),
    environment: app.environment,
    api_version: API_VERSION,
    data: { app_id: app.app_id, message: "A test event sent from the portal: nothing changed." },
  };
  const event: EventItem = {
    event_id: eventId,
    app_id: app.app_id,
    environment: app.environment,
    type: TEST_EVENT_TYPE,
    body: JSON.stringify(body),
    created_at: body.created_at,
    status: "pending",
    attempts: 0,
    next_attempt_at: isoSeconds(addSeconds(now, FIRST_ATTEMPT_LEASE_SECONDS)),
  };
  // The event and the record of who sent it, in one write.
  await deps.events.create(
    event,
    auditRecord(caller.audit, now, { action: "webhook.tested", app_id: app.app_id, detail: { event_id: eventId } }),
  );
  const attempt = await attemptDelivery(deps, event, now);
  if (!attempt) throw new RefusedError("webhook_not_set", "The app's webhook URL was removed meanwhile");
  return { event_id: eventId, delivery: deliveryView(eventId, 1, attempt) };
}

/** The app's delivery attempts, newest first, optionally only delivered or only failed ones. */
export async function memberDeliveries(
  deps: { apps: Pick<AppStore, "getApp">; events: Pick<EventStore, "attemptsForApp"> },
  member: Member,
  appId: string,
  query: { status?: AttemptItem["outcome"]; limit: number; cursor?: string },
): Promise<{ data: DeliveryView[]; next_cursor: string | null }> {
  await memberApp(deps.apps, member, appId);
  const { items, last } = await deps.events.attemptsForApp(appId, { outcome: query.status }, query.limit, query.cursor);
  return {
    data: items.map((item) => deliveryView(item.event_id, item.attempt, item)),
    next_cursor: last ?? null,
  };
}

/**
 * Delivers one of the organisation's events again, as a new round of attempts due now; not one
 * still being delivered (its schedule would start over), and within the app's sends by hand.
 */
export async function replayMemberEvent(
  deps: {
    apps: Pick<AppStore, "getApp">;
    events: Pick<EventStore, "get" | "requeue">;
    sending: SendingBudget;
    queue: DeliveryQueue;
    log: Log;
    clock: Clock;
  },
  caller: PortalCaller,
  eventId: string,
): Promise<{ event_id: string; status: "pending"; next_attempt_at: string }> {
  const notFound = new NotFoundError("event_not_found", "No event with this id exists for your organisation");
  const event = isId("event", eventId) ? await deps.events.get(eventId) : undefined;
  if (!event) throw notFound;
  await memberApp(deps.apps, caller.member, event.app_id).catch(() => {
    throw notFound;
  });
  if (event.status === "pending") {
    throw new RefusedError(
      "event_pending",
      "The event is still being delivered on its schedule; send it again once it is delivered or parked",
    );
  }
  await takeSend(deps, event.app_id, "manual");
  const queued = await replayEvent(deps, eventId, caller.audit);
  // Made at once by the delivery queue's reader; should the queue not take it, the tick makes it
  // within a minute (the event is due now either way, and only one of them claims the attempt).
  await deps.queue
    .send({ event_id: eventId, app_id: event.app_id })
    .catch((error: unknown) =>
      deps.log.warn("the replayed event was not queued; the tick sends it", { error, event_id: eventId }),
    );
  return {
    event_id: eventId,
    status: "pending",
    next_attempt_at: queued.next_attempt_at ?? isoSeconds(deps.clock.now()),
  };
}
