/**
 * What the customer portal's API answers, as wire schemas. For the OpenAPI document and the
 * tests; no function builds them (`portal.ts` is what the API accepts).
 */
import { ENVIRONMENTS } from "../environments.ts";
import { ID_PATTERNS } from "../ids.ts";
import { roleSchema } from "../organizations.ts";
import { KEY_ID_PATTERN } from "../portal.ts";
import { MAX_KEPT_ERRORS } from "../requests.ts";
import { USAGE_OUTCOMES, type UsageOutcome } from "../usage.ts";
import { DELIVERY_ERROR_CODES, EVENT_TYPES } from "../webhook-events.ts";
import * as z from "../zod.ts";
import { listedVerificationSchema } from "./verification.ts";

const instant = z.iso.datetime();
const day = z.iso.date();

export const keySchema = z
  .strictObject({
    key_id: z.string().check(z.regex(KEY_ID_PATTERN), z.describe("Names the key in the portal; never the key itself")),
    prefix: z.string().check(z.describe("The key's first characters, to tell keys apart")),
    name: z
      .nullable(z.string())
      .check(z.describe("What your organisation calls the key; null when it was never named")),
    status: z.enum(["active", "expiring", "expired", "revoked"]),
    created_at: instant,
    expires_at: z.nullable(instant).check(z.describe("Set on the old key by a rotation: it stops working then")),
    revoked_at: z.nullable(instant).check(z.describe("When it was revoked; null while it was not")),
    last_used_at: z
      .nullable(instant)
      .check(
        z.describe(
          "When the API last let a request with it pass, to within a few minutes (the authorizer writes it at most once a minute and holds its answer up to 5 minutes); null when never",
        ),
      ),
  })
  .check(z.describe("An API key as the portal shows it"));

const appFields = {
  app_id: z.string().check(z.regex(ID_PATTERNS.app)),
  name: z.string(),
  environment: z.enum(ENVIRONMENTS),
  status: z.enum(["active", "disabled"]),
  webhook_url: z.nullable(z.string()).check(z.describe("Where events are sent; null when none is set")),
  previous_webhook_secret_expires_at: z
    .nullable(instant)
    .check(z.describe("While set, events carry a second signature made with the secret before the last rotation")),
  created_at: instant,
  updated_at: instant,
};

export const portalAppSchema = z
  .strictObject({ ...appFields, keys: z.array(keySchema).check(z.describe("Every key the app had, oldest first")) })
  .check(z.describe("A client app of your organisation"));

export const createdAppSchema = z
  .strictObject({
    ...appFields,
    keys: z.array(keySchema),
    api_key: z.string().check(z.describe("Shown once: only its hash is kept")),
    webhook_secret: z.string().check(z.describe("Shown once: the signing secret of this app's webhooks")),
  })
  .check(z.describe("A new app, with its first key and webhook secret shown this once"));

export const rotatedKeySchema = z
  .strictObject({
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    api_key: z.string().check(z.describe("Shown once: only its hash is kept")),
    key: keySchema,
    expiring: z.array(keySchema).check(z.describe("The keys that were live, with the expiry they now have")),
  })
  .check(z.describe("A new key; the ones it replaces expire after the grace period"));

export const renamedKeySchema = z
  .strictObject({ app_id: z.string().check(z.regex(ID_PATTERNS.app)), key: keySchema })
  .check(z.describe("The key, with its new name"));

export const revokedKeySchema = z
  .strictObject({ app_id: z.string().check(z.regex(ID_PATTERNS.app)), key: keySchema })
  .check(z.describe("The key, revoked now"));

export const webhookDestinationSchema = z
  .strictObject({ app_id: z.string().check(z.regex(ID_PATTERNS.app)), webhook_url: z.string() })
  .check(z.describe("The app's webhook destination"));

export const rotatedSecretSchema = z
  .strictObject({
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    webhook_secret: z.string().check(z.describe("Shown once")),
    previous_secret_expires_at: instant.check(
      z.describe("Until then events carry a second signature with the previous secret"),
    ),
  })
  .check(z.describe("A new webhook signing secret"));

export const deliverySchema = z
  .strictObject({
    event_id: z.string().check(z.regex(ID_PATTERNS.event)),
    event_type: z.nullable(z.string()),
    attempt: z
      .int()
      .check(
        z.positive(),
        z.describe("The attempt's number among all the event's attempts: a replay's first attempt goes on counting"),
      ),
    attempted_at: instant,
    url: z.string(),
    outcome: z.enum(["delivered", "failed"]),
    response_status: z
      .nullable(z.int())
      .check(z.describe("The destination's HTTP status; null when it did not answer")),
    latency_ms: z.int().check(z.gte(0)),
    response_body: z.nullable(z.string()).check(z.describe("The first 1 KiB of the destination's answer")),
    error: z.nullable(z.string()).check(z.describe("Why the attempt failed, when it did, in a sentence")),
    error_code: z
      .nullable(z.enum(DELIVERY_ERROR_CODES))
      .check(
        z.describe(
          "Why the attempt failed, as a code: `http_status` (answered with a status other than 2xx), `timeout` (no answer within 10 s), `connection_failed`, `destination_refused` (not a public address); null when it was delivered",
        ),
      ),
  })
  .check(z.describe("One attempt to deliver an event"));
export type Delivery = z.infer<typeof deliverySchema>;

export const eventAttemptSchema = z
  .strictObject({
    attempt: z.int().check(z.positive(), z.describe("1 for the first attempt; replays go on counting")),
    attempted_at: instant,
    url: z.string(),
    outcome: z.enum(["delivered", "failed"]),
    response_status: z
      .nullable(z.int())
      .check(z.describe("The destination's HTTP status; null when it did not answer")),
    latency_ms: z.int().check(z.gte(0)),
    response_body: z.nullable(z.string()).check(z.describe("The first 1 KiB of the destination's answer")),
    error: z.nullable(z.string()).check(z.describe("Why the attempt failed, when it did, in a sentence")),
    error_code: z
      .nullable(z.enum(DELIVERY_ERROR_CODES))
      .check(z.describe("Why the attempt failed, as a code (as in the deliveries); null when it was delivered")),
    headers: z
      .nullable(z.record(z.string(), z.string()))
      .check(
        z.describe(
          "The headers the attempt sent, its signature included; null for attempts made before they were kept",
        ),
      ),
  })
  .check(z.describe("One attempt to deliver the event"));

export const appEventSchema = z
  .strictObject({
    event_id: z.string().check(z.regex(ID_PATTERNS.event)),
    type: z.enum(EVENT_TYPES),
    created_at: instant,
    verification_id: z.nullable(z.string().check(z.regex(ID_PATTERNS.verification))),
    status: z
      .enum(["pending", "delivered", "parked", "no_destination"])
      .check(
        z.describe(
          "`pending`: an attempt is due; `delivered`; `parked`: every attempt failed; `no_destination`: the app had no webhook URL. Any of them can be sent again",
        ),
      ),
    next_attempt_at: z.nullable(instant).check(z.describe("While pending: when the next attempt is due")),
    payload: z
      .unknown()
      .check(z.describe("The JSON body every attempt sends (as it now is: erasure removes personal data)")),
    attempts: z.array(eventAttemptSchema).check(z.describe("Every attempt, first first")),
  })
  .check(z.describe("One event of the app, with what it sends and every attempt to send it"));
export type AppEvent = z.infer<typeof appEventSchema>;

export const keptRequestSchema = z
  .strictObject({
    request_id: z.string(),
    method: z.string(),
    path: z.string().check(z.describe("The path as sent, without its query")),
    status: z.int().check(z.describe("The HTTP status it was answered with")),
    code: z.nullable(z.string()).check(z.describe("The problem's code, when it was refused")),
    errors: z
      .array(z.strictObject({ field: z.string(), code: z.string() }))
      .check(
        z.describe(
          `A \`validation_failed\` refusal's invalid fields (at most ${MAX_KEPT_ERRORS}): each one's path and code, never the value sent`,
        ),
      ),
    verification_id: z
      .nullable(z.string().check(z.regex(ID_PATTERNS.verification)))
      .check(z.describe("The verification it created or was about")),
    at: instant,
  })
  .check(
    z.describe(
      "A request of one of your apps as the API answered it, kept 30 days: every request that could change something, and every refused one",
    ),
  );
export type KeptRequest = z.infer<typeof keptRequestSchema>;

export const lookupMatchSchema = z
  .strictObject({
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    app_name: z.string(),
    matched_by: z
      .enum(["verification_id", "request_id", "external_reference_id", "recent"])
      .check(z.describe("What `q` matched; `recent` when no `q` was given")),
    verification: z
      .nullable(listedVerificationSchema)
      .check(z.describe("The verification found; null only for a request that named or created none")),
    request: z
      .nullable(keptRequestSchema)
      .check(
        z.describe(
          "With `matched_by: request_id`: the request as the API answered it (kept 30 days: every request that could change something, and every refused one)",
        ),
      ),
  })
  .check(z.describe("A verification of one of your apps, or a request one of them made, and what found it"));
export type LookupMatch = z.infer<typeof lookupMatchSchema>;

export const testDeliverySchema = z
  .strictObject({ event_id: z.string().check(z.regex(ID_PATTERNS.event)), delivery: deliverySchema })
  .check(z.describe("The `webhook.test` event and how its delivery went"));

export const replaySchema = z
  .strictObject({
    event_id: z.string().check(z.regex(ID_PATTERNS.event)),
    status: z.literal("pending"),
    next_attempt_at: instant.check(z.describe("The new round's first attempt is due then (within a minute)")),
  })
  .check(z.describe("The event, queued to be delivered again"));

export const usageRowSchema = z
  .strictObject({
    day,
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    ...(Object.fromEntries(USAGE_OUTCOMES.map((outcome) => [outcome, z.int().check(z.gte(0))])) as Record<
      UsageOutcome,
      z.ZodMiniInt
    >),
    total: z.int().check(z.gte(0)),
  })
  .check(z.describe("Verifications of one app that reached their final state on one UTC day, by outcome"));
export type UsageRow = z.infer<typeof usageRowSchema>;

const sendingLimitSchema = z.strictObject({
  most: z.int().check(z.gte(1), z.describe("The most in one window")),
  per_seconds: z.int().check(z.gte(1), z.describe("How long a window lasts, from its first send")),
});

export const meSchema = z
  .strictObject({
    username: z.string(),
    role: roleSchema.check(
      z.describe("`owner`: everything, users too; `developer`: apps, keys, webhooks; `viewer`: read only"),
    ),
    organization_id: z.string().check(z.regex(ID_PATTERNS.organization)),
    organization_name: z.string(),
    environment: z.enum(ENVIRONMENTS),
    limits: z
      .strictObject({
        apps: z
          .strictObject({
            used: z.int().check(z.gte(0), z.describe("Apps the organisation owns")),
            limit: z
              .int()
              .check(z.gte(1), z.describe("The most it may own: a create beyond it is `409 limit_reached`")),
          })
          .check(z.describe("The organisation's apps against its limit")),
        sending: z
          .strictObject({
            test: sendingLimitSchema.check(z.describe("Test events (`POST .../webhook/test`)")),
            manual: sendingLimitSchema.check(
              z.describe("Events sent now or replayed (`POST /portal/v1/events/{event_id}/send` and `.../replay`)"),
            ),
          })
          .check(
            z.describe(
              "What each app may make the service send to its destination by hand: beyond, `429 rate_limited` with Retry-After",
            ),
          ),
      })
      .check(z.describe("What the organisation uses of its limits")),
  })
  .check(z.describe("Who is signed in, to which organisation, and what it uses of its limits"));

export const memberSchema = z
  .strictObject({
    username: z.string(),
    role: roleSchema,
    created_at: instant,
  })
  .check(z.describe("A person of your organisation"));

export const invitedSchema = z
  .strictObject({
    username: z.string(),
    role: roleSchema,
    status: z
      .string()
      .check(
        z.describe(
          "`FORCE_CHANGE_PASSWORD` until their first sign-in: the invitation with a temporary password went to their email, to nobody else",
        ),
      ),
  })
  .check(z.describe("A new person of your organisation"));
