/**
 * Webhook events: one per change of state, recorded once, delivered at least once with the
 * environment's retry schedule, then parked until an operator replays it.
 */
import type { AppItem, AppStore } from "../app-store.ts";
import type { Environment } from "../config.ts";
import { refusedDestination } from "../destination-guard.ts";
import { type EventItem, type EventStore, eventPk } from "../event-store.ts";
import {
  API_VERSION,
  type EventType,
  metricsNamespace,
  PARKED_EVENTS_METRIC,
  WEBHOOK_HEADERS,
  type WebhookEvent,
} from "../events.ts";
import { deterministicId } from "../ids.ts";
import { logger } from "../logger.ts";
import { addSeconds, isoSeconds } from "../time.ts";
import { toResource, type VerificationItem } from "../verification.ts";
import { signWebhook } from "../webhook-signature.ts";

/** Seconds after each failed attempt before the next one; after the last, the event is parked. */
export const RETRY_DELAYS_SECONDS: Record<Environment, readonly number[]> = {
  production: [60, 300, 1800, 7200, 21600, 43200, 86400],
  sandbox: [60, 300],
};
/** A delay varies by up to this fraction either way, so retries from one outage spread out. */
export const RETRY_JITTER = 0.1;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How long the first attempt (made by whoever recorded the event) owns the event. */
export const FIRST_ATTEMPT_LEASE_SECONDS = 30;
const KEEP_EVENTS_DAYS = 30;

const EVENT_TYPE_OF: Partial<Record<VerificationItem["status"], EventType>> = {
  processing: "verification.processing",
  completed: "verification.completed",
  failed: "verification.failed",
  expired: "verification.expired",
};

export interface WebhookDeps {
  events: EventStore;
  apps: AppStore;
  /** The secrets to sign with now: the current one, and the previous one during a rotation. */
  signingSecrets: (app: AppItem, now: string) => Promise<string[]>;
  /** For jitter; tests pass a fixed one. */
  random?: () => number;
}

/** The event a verification's current state calls for, if any: same change, same event id. */
export function eventFor(
  item: VerificationItem,
): Omit<EventItem, "status" | "attempts" | "next_attempt_at"> | undefined {
  const type = EVENT_TYPE_OF[item.status];
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
    pk: eventPk(eventId),
    sk: "EVENT",
    event_id: eventId,
    app_id: item.app_id,
    environment: item.environment,
    verification_id: item.verification_id,
    sequence: item.sequence,
    type,
    body: JSON.stringify(body),
    created_at: item.updated_at,
    expires_at_epoch: Math.floor(changedAt / 1000) + KEEP_EVENTS_DAYS * 86400,
  };
}

/**
 * Records the event for the verification's state; undefined when there is none or it was
 * recorded before (a change seen twice). The recorder owns the first attempt for a short
 * lease; if it never makes it, the tick does.
 */
export async function recordEvent(
  deps: WebhookDeps,
  item: VerificationItem,
  now: Date,
): Promise<EventItem | undefined> {
  const draft = eventFor(item);
  if (!draft) return undefined;
  const event: EventItem = {
    ...draft,
    status: "pending",
    attempts: 0,
    next_attempt_at: isoSeconds(addSeconds(now, FIRST_ATTEMPT_LEASE_SECONDS)),
  };
  return (await deps.events.create(event)) ? event : undefined;
}

function nextAttemptAt(deps: WebhookDeps, event: EventItem, now: Date): string | undefined {
  const delay = RETRY_DELAYS_SECONDS[event.environment][event.attempts];
  if (delay === undefined) return undefined;
  const jitter = 1 + RETRY_JITTER * (2 * (deps.random ?? Math.random)() - 1);
  return isoSeconds(addSeconds(now, Math.round(delay * jitter)));
}

async function post(url: string, headers: Record<string, string>, body: string) {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { statusCode: response.status, latency: performance.now() - started };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return { error: timedOut ? "timed out after 10 s" : "connection failed", latency: performance.now() - started };
  }
}

/** One attempt to deliver `event`, recorded with what follows it. */
export async function attemptDelivery(deps: WebhookDeps, event: EventItem, now: Date): Promise<void> {
  const app = await deps.apps.getApp(event.app_id);
  if (!app?.webhook_url) {
    await deps.events.markNoDestination(event);
    return;
  }
  const url = app.webhook_url;
  const timestamp = Math.floor(now.getTime() / 1000);
  let outcome: { statusCode?: number; error?: string; latency: number };
  const refusal = await refusedDestination(url, event.environment).catch(
    () => "The destination's name could not be resolved",
  );
  if (refusal) {
    outcome = { error: refusal, latency: 0 };
  } else {
    const signature = signWebhook(
      await deps.signingSecrets(app, isoSeconds(now)),
      event.event_id,
      timestamp,
      event.body,
    );
    outcome = await post(
      url,
      {
        "Content-Type": "application/json",
        "User-Agent": "verification-api-webhooks/1",
        [WEBHOOK_HEADERS.id]: event.event_id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signature,
      },
      event.body,
    );
  }
  const delivered = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const next = delivered ? undefined : nextAttemptAt(deps, event, now);
  await deps.events.recordAttempt(
    event,
    {
      attempted_at: isoSeconds(now),
      url,
      outcome: delivered ? "delivered" : "failed",
      status_code: outcome.statusCode,
      latency_ms: Math.round(outcome.latency),
      error: outcome.error ?? (delivered ? undefined : `answered ${outcome.statusCode}`),
    },
    delivered ? { status: "delivered" } : next ? { status: "pending", nextAttemptAt: next } : { status: "parked" },
  );
  if (!delivered && !next) {
    // An embedded metric (CloudWatch EMF): the parked-events alarm watches it.
    logger.warn("webhook event parked", {
      event_id: event.event_id,
      app_id: event.app_id,
      _aws: {
        Timestamp: now.getTime(),
        CloudWatchMetrics: [
          {
            Namespace: metricsNamespace(event.environment),
            Dimensions: [[]],
            Metrics: [{ Name: PARKED_EVENTS_METRIC, Unit: "Count" }],
          },
        ],
      },
      [PARKED_EVENTS_METRIC]: 1,
    });
  }
}

/** The tick's share: every due attempt, each taken by exactly one caller. */
export async function deliverDue(deps: WebhookDeps, now: Date, limit = 100): Promise<number> {
  const due = await deps.events.due(isoSeconds(now), limit);
  let attempted = 0;
  for (const event of due) {
    const lease = isoSeconds(addSeconds(now, DELIVERY_TIMEOUT_MS / 1000 + 20));
    if (!(await deps.events.claim(event, lease))) continue;
    try {
      await attemptDelivery(deps, { ...event, next_attempt_at: lease }, now);
      attempted += 1;
    } catch (error) {
      // One event's trouble (say, a secret that will not open) must not hold up the others;
      // it is due again when its lease passes.
      logger.error("webhook attempt failed", { error: error as Error, event_id: event.event_id });
    }
  }
  return attempted;
}

/** No event has this id. */
export class EventNotFoundError extends Error {
  constructor(eventId: string) {
    super(`No event ${eventId}`);
    this.name = "EventNotFoundError";
  }
}

/**
 * Sends a parked or delivered event again, as a new round of attempts due now: the tick
 * makes them, from where webhooks are always sent, with the usual schedule if they fail.
 */
export async function replayEvent(
  deps: Pick<WebhookDeps, "events">,
  eventId: string,
  now: Date,
): Promise<EventItem | undefined> {
  const event = await deps.events.get(eventId);
  return event ? deps.events.requeue(event, isoSeconds(now)) : undefined;
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
  deps: Pick<WebhookDeps, "events">,
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
