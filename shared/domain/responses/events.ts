/**
 * What a webhook delivers and `GET /v1/events` lists, as wire schemas: the event bodies. For the
 * OpenAPI documents and the tests; no function builds them (`webhook-events.ts` is what the
 * service does with events).
 */
import { ENVIRONMENTS } from "../environments.ts";
import { ID_PATTERNS } from "../ids.ts";
import { listPageSchema } from "../lists.ts";
import { API_VERSION, TEST_EVENT_TYPE, VERIFICATION_EVENT_TYPES } from "../webhook-events.ts";
import * as z from "../zod.ts";
import { verificationResourceSchema } from "./verification.ts";

/** A webhook body: the verification as the API shows it, without upload instructions. */
export const webhookEventSchema = z
  .strictObject({
    id: z
      .string()
      .check(
        z.regex(ID_PATTERNS.event),
        z.describe("`evt_` and a ULID; also sent as `webhook-id`. Deliveries repeat it"),
      ),
    type: z.enum(VERIFICATION_EVENT_TYPES),
    created_at: z.iso.datetime(),
    environment: z.enum(ENVIRONMENTS),
    api_version: z.literal(API_VERSION),
    data: z.strictObject({
      verification: z
        .omit(verificationResourceSchema, { upload: true })
        .check(z.describe("The verification as GET returns it, without `upload`")),
    }),
  })
  .check(z.describe("A webhook event: delivered at least once, so deduplicate by `id`"));
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** The body of a `webhook.test` event: signed and delivered like every other, about no verification. */
export const testEventSchema = z
  .strictObject({
    id: z.string().check(z.regex(ID_PATTERNS.event), z.describe("`evt_` and a ULID; also sent as `webhook-id`")),
    type: z.literal(TEST_EVENT_TYPE),
    created_at: z.iso.datetime(),
    environment: z.enum(ENVIRONMENTS),
    api_version: z.literal(API_VERSION),
    data: z.strictObject({
      app_id: z.string().check(z.regex(ID_PATTERNS.app), z.describe("The app whose destination was tested")),
      message: z.string(),
    }),
  })
  .check(
    z.describe("A test event, sent when a developer asks for one from the portal; change nothing on receiving it"),
  );
export type TestEvent = z.infer<typeof testEventSchema>;

/** Any event body, as webhooks deliver it and `GET /v1/events` lists it. */
export const anyEventSchema = z.union([webhookEventSchema, testEventSchema]);

/** `GET /v1/events`: a page of events in the order they happened. */
export const eventPageSchema = listPageSchema(anyEventSchema);
