/**
 * The customer portal's wire: what its API accepts (its answers are `responses/portal.ts`). Apps,
 * keys and webhook destinations are the ones the ops command manages, shown to the organisation
 * that owns them.
 */
import { ID_PATTERNS } from "./ids.ts";
import { cursorSchema, limitSchema } from "./lists.ts";
import { roleSchema } from "./organizations.ts";
import { EVENT_TYPES } from "./webhook-events.ts";
import * as z from "./zod.ts";

const day = z.iso.date();

export const KEY_ID_PATTERN = /^key_[0-9a-f]{20}$/;
export const MAX_APP_NAME_LENGTH = 100;
export const MAX_KEY_NAME_LENGTH = 60;

const keyName = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(MAX_KEY_NAME_LENGTH),
    z.describe("What you call the key, to tell keys apart: 1 to 60 printable characters"),
  );
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** The longest usage window one request may read. */
export const MAX_USAGE_DAYS = 366;

export const newAppBodySchema = z.strictObject({
  name: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(MAX_APP_NAME_LENGTH),
      z.describe("A name for people: 1 to 100 printable characters"),
    ),
  key_name: z.optional(keyName).check(z.describe("A name for the app's first key")),
  webhook_url: z
    .optional(z.string().check(z.maxLength(MAX_WEBHOOK_URL_LENGTH)))
    .check(z.describe("Where to send events; can be set later")),
});

export const rotateKeyBodySchema = z.strictObject({
  grace_seconds: z
    .optional(z.int().check(z.gte(0), z.lte(7 * 24 * 3600)))
    .check(z.describe("How long the old key keeps working: 24 hours by default, at most 7 days")),
  name: z.optional(keyName).check(z.describe("A name for the new key")),
});

/** A key's new name. */
export const renameKeyBodySchema = z.strictObject({ name: keyName });

export const webhookBodySchema = z.strictObject({
  url: z
    .string()
    .check(
      z.maxLength(MAX_WEBHOOK_URL_LENGTH),
      z.describe("An https URL (http to a loopback address only in the local sandbox runtime)"),
    ),
});

export const deliveriesQuerySchema = z.strictObject({
  status: z.optional(z.enum(["delivered", "failed"])).check(z.describe("Only attempts with this outcome")),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
});

export const appEventsQuerySchema = z.strictObject({
  type: z.optional(z.enum(EVENT_TYPES)).check(z.describe("Only events of this type")),
  after: z
    .optional(z.iso.datetime())
    .check(z.describe("Only events created at or after this instant; the last 30 days at most either way")),
  verification_id: z
    .optional(z.string().check(z.regex(ID_PATTERNS.verification)))
    .check(
      z.describe(
        "Only this verification's events, in the order they happened (its timeline), on one page; `cursor` is then refused",
      ),
    ),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
});

export const lookupQuerySchema = z.strictObject({
  q: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(
      z.describe(
        "A verification id, a `request_id` the API answered with, or an `external_reference_id`, exactly, looked up in every app of your organisation; without it, the most recent verifications",
      ),
    ),
  limit: limitSchema,
});

/** The status classes the request log is filtered by. */
export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export const appRequestsQuerySchema = z.strictObject({
  status: z
    .optional(z.enum(STATUS_CLASSES))
    .check(z.describe("Only requests answered with a status of this class: `2xx`, `4xx` or `5xx`")),
  since: z
    .optional(z.iso.datetime())
    .check(z.describe("Only requests answered at or after this instant; the last 30 days at most either way")),
  until: z.optional(z.iso.datetime()).check(z.describe("Only requests answered at or before this instant")),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
});

/** Where a page of an app's requests ended, as the request log handed it out. */
export const appRequestPositionSchema = z.strictObject({ after: z.string().check(z.minLength(1), z.maxLength(256)) });

/** Where a page of an app's events ended: the last event's id (newest first). */
export const appEventPositionSchema = z.strictObject({ event_id: z.string().check(z.regex(ID_PATTERNS.event)) });

/** The usage window when none is asked for: the last 30 days, today included. */
export const DEFAULT_USAGE_DAYS = 30;

export const usageQuerySchema = z.strictObject({
  from: z.optional(day).check(z.describe("First UTC day, `YYYY-MM-DD`; 29 days before `to` by default")),
  to: z.optional(day).check(z.describe("Last UTC day, `YYYY-MM-DD`, at most 365 days after `from`; today by default")),
  app_id: z
    .optional(z.string().check(z.regex(ID_PATTERNS.app)))
    .check(z.describe("One app; every app of your organisation when absent")),
});

export const appsQuerySchema = z.strictObject({ limit: limitSchema, cursor: z.optional(cursorSchema) });

/** Where a page of apps ended: the last app's id (apps list in creation order). */
export const appPositionSchema = z.strictObject({ app_id: z.string().check(z.regex(ID_PATTERNS.app)) });

export const membersQuerySchema = z.strictObject({ limit: limitSchema, cursor: z.optional(cursorSchema) });

/**
 * Where a page of members ended: the last one's username (members list by username) and `sub`,
 * as the customer pool has them: a username of Cognito's characters (no space or control
 * character), and a sub that is a UUID.
 */
export const memberPositionSchema = z.strictObject({
  username: z.string().check(z.regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u)),
  sub: z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)),
});

export const inviteBodySchema = z.strictObject({
  username: z
    .string()
    .check(z.regex(/^[a-zA-Z0-9._@+-]{3,64}$/), z.describe("How they sign in: 3 to 64 letters, digits or `._@+-`")),
  email: z
    .email()
    .check(
      z.maxLength(254),
      z.describe("Where the pool mails the invitation with a temporary password, and later forgotten-password codes"),
    ),
  role: roleSchema,
});

/** A member's new role. */
export const memberRoleBodySchema = z.strictObject({ role: roleSchema });
