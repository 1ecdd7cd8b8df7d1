/**
 * Webhook events: one per change of state, recorded once, delivered at least once with the
 * environment's retry schedule, then parked until an operator replays it.
 */
import type { Environment } from "../../domain/environments.ts";
import { deterministicId } from "../../domain/ids.ts";
import { inParallel } from "../../domain/in-parallel.ts";
import type { WebhookEvent } from "../../domain/responses/events.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import { toResource, type VerificationItem } from "../../domain/verification.ts";
import {
  API_VERSION,
  DELIVERY_TIMEOUT_MS,
  type DeliveryMessage,
  type EventItem,
  TEST_EVENT_TYPE,
  type VerificationEventType,
  WEBHOOK_HEADERS,
} from "../../domain/webhook-events.ts";
import { signWebhook } from "../../domain/webhook-signature.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { AttemptRecord, EventStore } from "../../ports/event-store.ts";
import type { Log } from "../../ports/log.ts";
import type { Sealer } from "../../ports/sealer.ts";
import type { WebhookSender } from "../../ports/webhook-sender.ts";
import { signingSecrets } from "./destination.ts";

/** Seconds after each failed attempt before the next one; after the last, the event is parked. */
export const RETRY_DELAYS_SECONDS: Record<Environment, readonly number[]> = {
  production: [60, 300, 1800, 7200, 21600, 43200, 86400],
  sandbox: [60, 300],
};
/** A delay varies by up to this fraction either way, so retries from one outage spread out. */
export const RETRY_JITTER = 0.1;
/** How long the first attempt (made by whoever recorded the event) owns the event. */
export const FIRST_ATTEMPT_LEASE_SECONDS = 30;

const EVENT_TYPE_OF: Partial<Record<VerificationItem["status"], VerificationEventType>> = {
  processing: "verification.processing",
  in_review: "verification.in_review",
  completed: "verification.completed",
  failed: "verification.failed",
  expired: "verification.expired",
};

export interface WebhookDeps {
  events: Pick<EventStore, "get" | "due" | "claim" | "recordAttempt" | "markNoDestination">;
  apps: Pick<AppStore, "getApp">;
  /** Opens the sealed signing secrets. */
  sealer: Sealer;
  sender: WebhookSender;
  clock: Clock;
  log: Log;
  /** For jitter; tests pass a fixed one. */
  random?: () => number;
}

/** The event a verification's current state calls for, if any: same change, same event id. */
export function eventFor(
  item: VerificationItem,
): Omit<EventItem, "status" | "attempts" | "next_attempt_at"> | undefined {
  // The erasure is the last change a verification makes: the same write set both times.
  const type = item.redacted_at === item.updated_at ? "verification.redacted" : EVENT_TYPE_OF[item.status];
  if (!type) return undefined;
  const changedAt = Date.parse(item.updated_at);
  const eventId = deterministicId("event", changedAt, `${item.verification_id}#${item.sequence}`);
  const body: WebhookEvent = {
    id: eventId,
    type,
    created_at: item.updated_at,
    environment: item.environment,
    api_version: API_VERSION,
    data: { verification: toResource(item, item.updated_at) },
  };
  return {
    event_id: eventId,
    app_id: item.app_id,
    environment: item.environment,
    verification_id: item.verification_id,
    sequence: item.sequence,
    type,
    body: JSON.stringify(body),
    created_at: item.updated_at,
  };
}

/**
 * Records the event for the verification's state; undefined when there is none or it was
 * recorded before (a change seen twice). Its first attempt is left to the delivery queue for
 * a short lease; if the queue never makes it, the tick does.
 */
export async function recordEvent(
  deps: { events: Pick<EventStore, "create">; clock: Clock },
  item: VerificationItem,
): Promise<EventItem | undefined> {
  const draft = eventFor(item);
  if (!draft) return undefined;
  const event: EventItem = {
    ...draft,
    status: "pending",
    attempts: 0,
    next_attempt_at: isoSeconds(addSeconds(deps.clock.now(), FIRST_ATTEMPT_LEASE_SECONDS)),
  };
  return (await deps.events.create(event)) ? event : undefined;
}

function nextAttemptAt(deps: WebhookDeps, event: EventItem, now: Date): string | undefined {
  // A test event shows the developer what their endpoint answers now; it is not retried, only replayed.
  if (event.type === TEST_EVENT_TYPE) return undefined;
  const delay = RETRY_DELAYS_SECONDS[event.environment][event.attempts];
  if (delay === undefined) return undefined;
  const jitter = 1 + RETRY_JITTER * (2 * (deps.random ?? Math.random)() - 1);
  return isoSeconds(addSeconds(now, Math.round(delay * jitter)));
}

/**
 * One attempt to deliver `event` at `now`, recorded with what follows it; the attempt, or
 * undefined when the app has no destination to attempt.
 */
export async function attemptDelivery(
  deps: WebhookDeps,
  event: EventItem,
  now: Date,
): Promise<AttemptRecord | undefined> {
  const app = await deps.apps.getApp(event.app_id);
  if (!app?.webhook_url) {
    await deps.events.markNoDestination(event);
    return undefined;
  }
  const url = app.webhook_url;
  const timestamp = Math.floor(now.getTime() / 1000);
  const signature = signWebhook(
    await signingSecrets(app, deps.sealer, isoSeconds(now)),
    event.event_id,
    timestamp,
    event.body,
  );
  // The sender refuses an address the environment's rule forbids, as a failed attempt.
  const headers = {
    "Content-Type": "application/json",
    "User-Agent": "verification-api-webhooks/1",
    [WEBHOOK_HEADERS.id]: event.event_id,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signature,
  };
  const outcome = await deps.sender.post(url, headers, event.body);
  const statusCode = "statusCode" in outcome ? outcome.statusCode : undefined;
  const delivered = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
  const next = delivered ? undefined : nextAttemptAt(deps, event, now);
  const attempt: AttemptRecord = {
    attempted_at: isoSeconds(now),
    url,
    event_type: event.type,
    outcome: delivered ? "delivered" : "failed",
    status_code: statusCode,
    latency_ms: Math.round(outcome.latencyMs),
    ...("body" in outcome && outcome.body !== undefined ? { response_body: outcome.body } : {}),
    ...("error" in outcome
      ? { error: outcome.error, error_code: outcome.errorCode }
      : delivered
        ? { error: undefined, error_code: undefined }
        : { error: `answered ${statusCode}`, error_code: "http_status" as const }),
    // What was sent, so a developer can compare it with what their endpoint checked.
    headers,
  };
  await deps.events.recordAttempt(
    event,
    attempt,
    delivered ? { status: "delivered" } : next ? { status: "pending", nextAttemptAt: next } : { status: "parked" },
  );
  if (!delivered && !next) {
    deps.log.count("ParkedEvents", event.environment, "webhook event parked", {
      event_id: event.event_id,
      app_id: event.app_id,
    });
  }
  return attempt;
}

/**
 * How many due attempts the tick makes at once: a hundred slow endpoints then take ten rounds
 * of the delivery timeout at most, well within the tick's own.
 */
export const RETRY_CONCURRENCY = 10;

/**
 * Takes the event's next attempt for this caller (false when another caller took it first)
 * and makes it. The lease outlasts the attempt, so no one else makes it meanwhile.
 */
async function claimAndAttempt(deps: WebhookDeps, event: EventItem, now: Date): Promise<boolean> {
  const lease = isoSeconds(addSeconds(now, DELIVERY_TIMEOUT_MS / 1000 + 20));
  if (!(await deps.events.claim(event, lease))) return false;
  await attemptDelivery(deps, { ...event, next_attempt_at: lease }, now);
  return true;
}

/** The tick's share: every due attempt, each taken by exactly one caller, a few at a time. */
export async function deliverDue(deps: WebhookDeps, limit = 100): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.events.due(isoSeconds(now), limit);
  let attempted = 0;
  await inParallel(due, RETRY_CONCURRENCY, async (event) => {
    try {
      if (await claimAndAttempt(deps, event, now)) attempted += 1;
    } catch (error) {
      // One event's trouble (say, a secret that will not open) must not hold up the others;
      // it is due again when its lease passes.
      deps.log.error("webhook attempt failed", { error, event_id: event.event_id });
    }
  });
  return attempted;
}

/**
 * The delivery queue's share: the first attempt of a newly recorded event. A message seen
 * twice, or one whose event the tick took first, does nothing; false then.
 */
export async function deliverQueued(deps: WebhookDeps, message: DeliveryMessage): Promise<boolean> {
  const event = await deps.events.get(message.event_id);
  if (event?.status !== "pending" || event.attempts > 0 || event.app_id !== message.app_id) return false;
  return claimAndAttempt(deps, event, deps.clock.now());
}
