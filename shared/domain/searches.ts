/**
 * Finding verifications and events: the public lists (`GET /v1/verifications`, `GET /v1/events`)
 * and the portal's search read the same indexes with the same filters.
 */
import { ID_PATTERNS } from "./ids.ts";
import { cursorSchema, limitSchema } from "./lists.ts";
import { STATUSES } from "./state.ts";
import * as z from "./zod.ts";

/** How far back the events list reaches: as long as events are kept. */
export const EVENTS_LIST_DAYS = 30;

const instant = z.iso.datetime();

/** The filters of a verification list, newest first. */
export const verificationFilterShape = {
  external_reference_id: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(z.describe("Only verifications created with this `external_reference_id`")),
  status: z.optional(z.enum(STATUSES)).check(z.describe("Only verifications in this status")),
  created_after: z.optional(instant).check(z.describe("Only verifications created at or after this time")),
  created_before: z.optional(instant).check(z.describe("Only verifications created before this time")),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
};

/** `GET /v1/verifications`: the caller app's verifications. */
export const verificationListQuerySchema = z.strictObject(verificationFilterShape);
export type VerificationListQuery = z.infer<typeof verificationListQuerySchema>;

/** `GET /v1/events`: the caller app's events in the order they happened. */
export const eventsQuerySchema = z.strictObject({
  after: z
    .optional(z.string().check(z.regex(ID_PATTERNS.event)))
    .check(z.describe("Only events after this one: the last `id` you processed, or `next_cursor`")),
  limit: limitSchema,
});

/**
 * Where a page of a verification list ended: the last item's creation time and id (the index
 * order), as the table keeps them (a creation time in whole seconds, UTC).
 */
export const verificationPositionSchema = z.strictObject({
  created_at: z.iso.datetime({ precision: 0 }),
  id: z.string().check(z.regex(ID_PATTERNS.verification)),
});
export type VerificationPosition = z.infer<typeof verificationPositionSchema>;

/** The portal's search: one of the organisation's apps, by the filters of the public list. */
export const portalSearchQuerySchema = z.strictObject({
  app_id: z.string().check(z.regex(ID_PATTERNS.app), z.describe("The app whose verifications to search")),
  ...verificationFilterShape,
});
