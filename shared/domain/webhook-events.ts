import type { Environment } from "./environments.ts";

/** The verification event types: one per state a verification can reach after creation, and its erasure. */
export const VERIFICATION_EVENT_TYPES = [
  "verification.processing",
  "verification.in_review",
  "verification.completed",
  "verification.failed",
  "verification.expired",
  "verification.redacted",
] as const;
export type VerificationEventType = (typeof VERIFICATION_EVENT_TYPES)[number];

/** Sent only when a developer asks for it from the portal, to try their endpoint. */
export const TEST_EVENT_TYPE = "webhook.test";

/** Every webhook event type. */
export const EVENT_TYPES = [...VERIFICATION_EVENT_TYPES, TEST_EVENT_TYPE] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const API_VERSION = "v1";

/** How long a destination has to answer one delivery. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Standard Webhooks headers on every delivery. */
export const WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

export type EventStatus = "pending" | "delivered" | "parked" | "no_destination";

/** A webhook event, kept `KEEP_EVENTS_DAYS` after it was created. */
export interface EventItem {
  event_id: string;
  app_id: string;
  environment: Environment;
  /** The verification and the change the event is about; absent for `webhook.test`. */
  verification_id?: string;
  sequence?: number;
  type: EventType;
  /** The exact body every attempt sends. */
  body: string;
  created_at: string;
  status: EventStatus;
  /** Attempts made so far in the current round (a replay starts a new round). */
  attempts: number;
  /** Attempts made in the rounds before the current one, so attempts are numbered across rounds. */
  attempts_before?: number;
  /** Present only while pending: when the next attempt is due. */
  next_attempt_at?: string;
}

/** What the delivery queue carries: the event to attempt first, and whose it is. */
export interface DeliveryMessage {
  event_id: string;
  app_id: string;
}

/** A delivery message from its body; undefined for anything else, which no retry would mend. */
export function deliveryMessageOf(body: string): DeliveryMessage | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { event_id: eventId, app_id: appId } = parsed as Record<string, unknown>;
    return typeof eventId === "string" && typeof appId === "string" ? { event_id: eventId, app_id: appId } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why an attempt failed, as a code the pages give their own words: the destination answered with
 * a status other than 2xx, took longer than 10 s, could not be connected to, or is an address
 * the environment does not send to.
 */
export const DELIVERY_ERROR_CODES = ["http_status", "timeout", "connection_failed", "destination_refused"] as const;
export type DeliveryErrorCode = (typeof DELIVERY_ERROR_CODES)[number];

/** One delivery attempt of an event, kept as long as its event. */
export interface AttemptItem {
  event_id: string;
  attempted_at: string;
  /** Its number among all the event's attempts, every round counted: a replay's first reads 2 after one attempt. */
  attempt: number;
  url: string;
  outcome: "delivered" | "failed";
  status_code?: number;
  latency_ms: number;
  /** Why it failed, in a sentence (operators read it), and as a code (attempts recorded before it was kept have none). */
  error?: string;
  error_code?: DeliveryErrorCode;
  /** The event's type (attempts recorded before it was kept have none). */
  event_type?: EventType;
  /** The first 1 KiB of what the destination answered. */
  response_body?: string;
  /** The headers the attempt sent, signature included (attempts recorded before they were kept have none). */
  headers?: Record<string, string>;
}

/** The number the next attempt of `event` has among all its attempts. */
export function nextAttemptNumber(event: Pick<EventItem, "attempts" | "attempts_before">): number {
  return (event.attempts_before ?? 0) + event.attempts + 1;
}

/** How much of a destination's answer an attempt keeps. */
export const RESPONSE_BODY_BYTES = 1024;

/** How long an event and its attempts are kept after the event was created. */
export const KEEP_EVENTS_DAYS = 30;
