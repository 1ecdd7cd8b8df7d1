import type { FieldError, ReachedLimit } from "../domain/errors.ts";
import type { ProblemBody } from "./problem-schema.ts";

/**
 * The catalogue of problem codes (RFC 9457). Handlers, the local gateway and the CDK
 * gateway responses all build their bodies from this one table.
 */

export const PROBLEMS = {
  malformed_json: { status: 400, title: "Request body is not a JSON object" },
  idempotency_key_missing: { status: 400, title: "Idempotency-Key header is required" },
  idempotency_key_invalid: { status: 400, title: "Idempotency-Key header is invalid" },
  invalid_cursor: { status: 400, title: "The cursor is not one this list gave" },
  duplicate_header: { status: 400, title: "A header that may come once came twice" },
  invalid_api_key: { status: 401, title: "API key is missing or invalid" },
  invalid_token: { status: 401, title: "Access token is missing or invalid" },
  app_disabled: { status: 403, title: "The client app is disabled" },
  forbidden: { status: 403, title: "Not allowed for your groups" },
  verification_not_found: { status: 404, title: "Verification not found" },
  document_not_found: { status: 404, title: "Document not found" },
  app_not_found: { status: 404, title: "App not found" },
  key_not_found: { status: 404, title: "API key not found" },
  member_not_found: { status: 404, title: "No member of your organisation has this username" },
  event_not_found: { status: 404, title: "Event not found" },
  route_not_found: { status: 404, title: "Route not found" },
  method_not_allowed: { status: 405, title: "The route does not take this method" },
  idempotency_request_in_progress: { status: 409, title: "A request with this Idempotency-Key is in progress" },
  upload_not_found: { status: 409, title: "The document has not been uploaded" },
  verification_expired: { status: 409, title: "The verification has expired" },
  verification_in_progress: { status: 409, title: "The verification is being processed or reviewed" },
  review_claimed: { status: 409, title: "Another reviewer holds the claim" },
  review_not_claimed: { status: 409, title: "Claim the review before acting on it" },
  verification_not_in_review: { status: 409, title: "The verification is not in review" },
  sequence_mismatch: { status: 409, title: "The verification has changed since you read it" },
  issuer_not_askable: { status: 409, title: "The issuer cannot be asked again for this verification" },
  issuer_asked_recently: { status: 409, title: "The issuer was asked again a short while ago" },
  too_many_live_keys: { status: 409, title: "The app already has two live keys" },
  limit_reached: { status: 409, title: "The organisation has reached one of its limits" },
  webhook_not_set: { status: 409, title: "The app has no webhook destination" },
  event_pending: { status: 409, title: "The event is still being delivered" },
  concurrent_change: { status: 409, title: "The app changed at the same time; retry" },
  user_exists: { status: 409, title: "A user of this name exists already" },
  last_owner: { status: 409, title: "The organisation would be left without an owner" },
  payload_too_large: { status: 413, title: "Request body is too large" },
  unsupported_media_type: { status: 415, title: "The body must be JSON (Content-Type: application/json), unencoded" },
  validation_failed: { status: 422, title: "Request validation failed" },
  idempotency_key_reused: { status: 422, title: "Idempotency-Key was used with a different request" },
  file_size_mismatch: { status: 422, title: "Uploaded file size does not match file_size_bytes" },
  unsupported_file_type: { status: 422, title: "Uploaded file is not an allowed type" },
  precondition_required: { status: 428, title: "If-Match header is required" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal error" },
  service_unavailable: { status: 503, title: "Service temporarily unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

export function isProblemCode(code: string): code is ProblemCode {
  return Object.hasOwn(PROBLEMS, code);
}
export const PROBLEM_CODES = Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]];

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
export const PROBLEM_TYPE_PREFIX = "urn:problem:verification-api:";

export function problemBody(
  code: ProblemCode,
  detail: string,
  requestId: string,
  extra: { errors?: FieldError[]; limit?: ReachedLimit } = {},
): ProblemBody {
  const { status, title } = PROBLEMS[code];
  return {
    type: `${PROBLEM_TYPE_PREFIX}${code}`,
    title,
    status,
    detail,
    code,
    request_id: requestId,
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...(extra.limit ? { limit: extra.limit } : {}),
  };
}
