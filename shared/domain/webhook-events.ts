import { z } from "zod";
import { ENVIRONMENTS, type Environment } from "./environments.ts";
import { ID_PATTERNS } from "./ids.ts";
import { verificationResourceSchema } from "./verification.ts";

/** The webhook event types, one per state a verification can reach after creation. */
export const EVENT_TYPES = [
  "verification.processing",
  "verification.in_review",
  "verification.completed",
  "verification.failed",
  "verification.expired",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const API_VERSION = "v1";

/** A webhook body: the verification as the API shows it, without upload instructions. */
export const webhookEventSchema = z
  .strictObject({
    id: z
      .string()
      .regex(ID_PATTERNS.event)
      .describe("`evt_` and a ULID; also sent as `webhook-id`. Deliveries repeat it"),
    type: z.enum(EVENT_TYPES),
    created_at: z.iso.datetime(),
    environment: z.enum(ENVIRONMENTS),
    api_version: z.literal(API_VERSION),
    data: z.strictObject({
      verification: verificationResourceSchema
        .omit({ upload: true })
        .describe("The verification as GET returns it, without `upload`"),
    }),
  })
  .describe("A webhook event: delivered at least once, so deduplicate by `id`");
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** How long a destination has to answer one delivery. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Standard Webhooks headers on every delivery. */
export const WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

export type EventStatus = "pending" | "delivered" | "parked" | "no_destination";

/** A webhook event: `pk = EVT#<event_id>`, `sk = EVENT`. */
export interface EventItem {
  pk: string;
  sk: "EVENT";
  event_id: string;
  app_id: string;
  environment: Environment;
  verification_id: string;
  sequence: number;
  type: EventType;
  /** The exact body every attempt sends. */
  body: string;
  created_at: string;
  status: EventStatus;
  /** Attempts made so far in the current round (a replay starts a new round). */
  attempts: number;
  /** Present only while pending: when the next attempt is due. */
  next_attempt_at?: string;
  due_shard?: string;
  expires_at_epoch: number;
}

/** One delivery attempt: `pk = EVT#<event_id>`, `sk = ATTEMPT#<time>#<n>`. */
export interface AttemptItem {
  pk: string;
  sk: string;
  event_id: string;
  attempt_app_id: string;
  attempted_at: string;
  attempt: number;
  url: string;
  outcome: "delivered" | "failed";
  status_code?: number;
  latency_ms: number;
  error?: string;
  expires_at_epoch: number;
}

export const eventPk = (eventId: string) => `EVT#${eventId}`;
