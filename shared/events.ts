import { z } from "zod";
import { ENVIRONMENTS } from "./config.ts";
import { ID_PATTERNS } from "./ids.ts";
import { verificationResourceSchema } from "./verification.ts";

/** The webhook event types, one per state a verification can reach after creation. */
export const EVENT_TYPES = [
  "verification.processing",
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

/** Standard Webhooks headers on every delivery. */
export const WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

/** The embedded metric a parked event emits; the parked-events alarm watches it. */
export const PARKED_EVENTS_METRIC = "ParkedEvents";

/** The CloudWatch namespace of the service's own metrics in one environment. */
export function metricsNamespace(environment: string): string {
  return `VerificationApi/${environment}`;
}
