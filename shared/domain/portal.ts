/**
 * The customer portal's wire: what its API accepts and answers. Apps, keys and webhook
 * destinations are the ones the ops command manages, shown to the organisation that owns them.
 */
import { ENVIRONMENTS } from "./environments.ts";
import { ID_PATTERNS } from "./ids.ts";
import { cursorSchema, limitSchema } from "./lists.ts";
import { roleSchema } from "./organizations.ts";
import { verificationFilterShape } from "./searches.ts";
import type { Result, Status } from "./state.ts";
import * as z from "./zod.ts";

const instant = z.iso.datetime();
const day = z.iso.date();

export const KEY_ID_PATTERN = /^key_[0-9a-f]{20}$/;
export const MAX_APP_NAME_LENGTH = 100;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** The longest usage window one request may read. */
export const MAX_USAGE_DAYS = 366;

export const keySchema = z
  .strictObject({
    key_id: z.string().check(z.regex(KEY_ID_PATTERN), z.describe("Names the key in the portal; never the key itself")),
    prefix: z.string().check(z.describe("The key's first characters, to tell keys apart")),
    status: z.enum(["active", "expiring", "expired", "revoked"]),
    created_at: instant,
    expires_at: z.nullable(instant).check(z.describe("Set on the old key by a rotation: it stops working then")),
    revoked_at: z.nullable(instant),
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

export const newAppBodySchema = z.strictObject({
  name: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(MAX_APP_NAME_LENGTH),
      z.describe("A name for people: 1 to 100 printable characters"),
    ),
  webhook_url: z
    .optional(z.string().check(z.maxLength(MAX_WEBHOOK_URL_LENGTH)))
    .check(z.describe("Where to send events; can be set later")),
});

export const createdAppSchema = z
  .strictObject({
    ...appFields,
    keys: z.array(keySchema),
    api_key: z.string().check(z.describe("Shown once: only its hash is kept")),
    webhook_secret: z.string().check(z.describe("Shown once: the signing secret of this app's webhooks")),
  })
  .check(z.describe("A new app, with its first key and webhook secret shown this once"));

export const rotateKeyBodySchema = z.strictObject({
  grace_seconds: z
    .optional(z.int().check(z.gte(0), z.lte(7 * 24 * 3600)))
    .check(z.describe("How long the old key keeps working: 24 hours by default, at most 7 days")),
});

export const rotatedKeySchema = z
  .strictObject({
    app_id: z.string().check(z.regex(ID_PATTERNS.app)),
    api_key: z.string().check(z.describe("Shown once: only its hash is kept")),
    key: keySchema,
    expiring: z.array(keySchema).check(z.describe("The keys that were live, with the expiry they now have")),
  })
  .check(z.describe("A new key; the ones it replaces expire after the grace period"));

export const revokedKeySchema = z
  .strictObject({ app_id: z.string().check(z.regex(ID_PATTERNS.app)), key: keySchema })
  .check(z.describe("The key, revoked now"));

export const webhookBodySchema = z.strictObject({
  url: z
    .string()
    .check(
      z.maxLength(MAX_WEBHOOK_URL_LENGTH),
      z.describe("An https URL (http to a loopback address only in the local sandbox runtime)"),
    ),
});

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
      .check(z.positive(), z.describe("The attempt's number within its round (a replay starts a new round)")),
    attempted_at: instant,
    url: z.string(),
    outcome: z.enum(["delivered", "failed"]),
    response_status: z
      .nullable(z.int())
      .check(z.describe("The destination's HTTP status; null when it did not answer")),
    latency_ms: z.int().check(z.gte(0)),
    response_body: z.nullable(z.string()).check(z.describe("The first 1 KiB of the destination's answer")),
    error: z.nullable(z.string()).check(z.describe("Why the attempt failed, when it did")),
  })
  .check(z.describe("One attempt to deliver an event"));

export const deliveriesQuerySchema = z.strictObject({
  status: z.optional(z.enum(["delivered", "failed"])).check(z.describe("Only attempts with this outcome")),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
});

/** Where a page of deliveries ended: the last attempt's time and keys (the index order). */
export const deliveryPositionSchema = z.strictObject({
  attempted_at: instant,
  pk: z.string().check(z.maxLength(64)),
  sk: z.string().check(z.maxLength(128)),
});

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

export const portalSearchQuerySchema = z.strictObject({
  app_id: z.string().check(z.regex(ID_PATTERNS.app), z.describe("The app whose verifications to search")),
  ...verificationFilterShape,
});

/** The usage window when none is asked for: the last 30 days, today included. */
export const DEFAULT_USAGE_DAYS = 30;

export const usageQuerySchema = z.strictObject({
  from: z.optional(day).check(z.describe("First UTC day, `YYYY-MM-DD`; 29 days before `to` by default")),
  to: z.optional(day).check(z.describe("Last UTC day, `YYYY-MM-DD`, at most 365 days after `from`; today by default")),
  app_id: z
    .optional(z.string().check(z.regex(ID_PATTERNS.app)))
    .check(z.describe("One app; every app of your organisation when absent")),
});

/** The outcomes usage counts: each verification once, when it reaches its final state. */
export const USAGE_OUTCOMES = ["verified", "rejected", "inconclusive", "failed", "expired"] as const;
export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];

/** What usage counts a verification as, once it is final; undefined while it is not. */
export function usageOutcome(item: { status: Status; result?: Result }): UsageOutcome | undefined {
  if (item.status === "completed") return item.result;
  if (item.status === "failed" || item.status === "expired") return item.status;
  return undefined;
}

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

export const appsQuerySchema = z.strictObject({ limit: limitSchema, cursor: z.optional(cursorSchema) });

/** Where a page of apps ended: the last app's id (apps list in creation order). */
export const appPositionSchema = z.strictObject({ app_id: z.string().check(z.regex(ID_PATTERNS.app)) });

export const meSchema = z
  .strictObject({
    username: z.string(),
    role: roleSchema.check(
      z.describe("`owner`: everything, users too; `developer`: apps, keys, webhooks; `viewer`: read only"),
    ),
    organization_id: z.string().check(z.regex(ID_PATTERNS.organization)),
    organization_name: z.string(),
    environment: z.enum(ENVIRONMENTS),
  })
  .check(z.describe("Who is signed in, and to which organisation"));

export const membersQuerySchema = z.strictObject({ limit: limitSchema, cursor: z.optional(cursorSchema) });

/** Where a page of members ended: the last one's username (members list by username). */
export const memberPositionSchema = z.strictObject({
  username: z.string().check(z.minLength(1), z.maxLength(128)),
  sub: z.string().check(z.maxLength(64)),
});

export const memberSchema = z
  .strictObject({
    username: z.string(),
    role: roleSchema,
    created_at: instant,
  })
  .check(z.describe("A person of your organisation"));

export const inviteBodySchema = z.strictObject({
  username: z
    .string()
    .check(z.regex(/^[a-zA-Z0-9._@+-]{3,64}$/), z.describe("How they sign in: 3 to 64 letters, digits or `._@+-`")),
  email: z
    .optional(z.email().check(z.maxLength(254)))
    .check(z.describe("Where the pool sends a forgotten-password code")),
  role: roleSchema,
});

export const invitedSchema = z
  .strictObject({
    username: z.string(),
    role: roleSchema,
    temporary_password: z.string().check(z.describe("Shown once: hand it over; the first sign-in sets their own")),
  })
  .check(z.describe("A new person of your organisation"));
