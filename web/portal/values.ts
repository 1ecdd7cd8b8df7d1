/**
 * The enums the page offers, in the document's order: generated from openapi-portal.json by
 * `npm run openapi` (openapi/page-types.ts). The order the page shows each in is declared beside
 * its labels, in `order.ts`.
 */

/** `/components/schemas/Verification/properties/status` */
export const STATUSES = ["awaiting_upload", "processing", "in_review", "completed", "failed", "expired"] as const;

/** `/components/schemas/AppEvent/properties/type` */
export const EVENT_TYPES = [
  "verification.processing",
  "verification.in_review",
  "verification.completed",
  "verification.failed",
  "verification.expired",
  "verification.redacted",
  "webhook.test",
] as const;

/** `/components/schemas/Delivery/properties/outcome` */
export const DELIVERY_OUTCOMES = ["delivered", "failed"] as const;

/** `/components/schemas/Delivery/properties/error_code/anyOf/0` */
export const DELIVERY_ERROR_CODES = ["http_status", "timeout", "connection_failed", "destination_refused"] as const;

/** `/components/schemas/Member/properties/role` */
export const ROLES = ["owner", "developer", "viewer"] as const;

/** `/paths/~1portal~1v1~1apps~1{app_id}~1requests/get/parameters/1/schema` */
export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
