/**
 * The lists the portal offers, in its order: each value of an enum of openapi-portal.json
 * (`values.ts`) with its place here and its label in every language (`text-en.ts`, `text-tr.ts`,
 * `../common/words-*.ts`), or the page fails to compile.
 */
import { inOrder, type LabelledIn } from "../common/order.ts";
import type { TextKey } from "./text-en.ts";
import * as values from "./values.ts";

/** Every status, in the order the search offers them. */
export const STATUSES = inOrder(values.STATUSES, {
  awaiting_upload: 1,
  processing: 2,
  in_review: 3,
  completed: 4,
  failed: 5,
  expired: 6,
}) satisfies readonly LabelledIn<TextKey, "status">[];

/** Every event type, in the order the events filter offers them. */
export const EVENT_TYPES = inOrder(values.EVENT_TYPES, {
  "verification.processing": 1,
  "verification.in_review": 2,
  "verification.completed": 3,
  "verification.failed": 4,
  "verification.expired": 5,
  "verification.redacted": 6,
  "webhook.test": 7,
}) satisfies readonly LabelledIn<TextKey, "event_type">[];

/** The outcomes the deliveries filter offers. */
export const DELIVERY_OUTCOMES = inOrder(values.DELIVERY_OUTCOMES, {
  delivered: 1,
  failed: 2,
}) satisfies readonly LabelledIn<TextKey, "delivery_outcome">[];

/** The status classes the request log's filter offers. */
export const STATUS_CLASSES = inOrder(values.STATUS_CLASSES, {
  "2xx": 1,
  "4xx": 2,
  "5xx": 3,
}) satisfies readonly LabelledIn<TextKey, "status_class">[];

/** The roles, least first, as the pickers offer them (each with its label and its hint). */
export const ROLES = inOrder(values.ROLES, {
  viewer: 1,
  developer: 2,
  owner: 3,
}) satisfies readonly (LabelledIn<TextKey, "role"> & LabelledIn<TextKey, "role_hint">)[];
