/**
 * The one family of errors the service raises on purpose, each with a stable `code`. The HTTP
 * layer turns them into problem+json (`http/responses.ts`, through `http/route-handler.ts`), the ops command into exit codes
 * (`ops/failures.ts`). Any other error is unexpected: a 500, or exit 1.
 */
export abstract class ServiceError<Code extends string = string> extends Error {
  readonly code: Code;
  /** Set when the same request may succeed after this many seconds (sent as Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: Code, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** One invalid field of a request. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export type InvalidInputCode =
  | "invalid_input"
  | "validation_failed"
  | "malformed_json"
  | "idempotency_key_missing"
  | "idempotency_key_invalid"
  | "duplicate_header"
  | "unsupported_media_type"
  | "payload_too_large"
  | "invalid_cursor"
  | "precondition_required";

/** A request that is not well formed: a body, a header, a name, a URL. */
export class InvalidInputError extends ServiceError<InvalidInputCode> {}

/** A body whose fields do not pass: every invalid field is listed. */
export class ValidationError extends InvalidInputError {
  readonly fields: FieldError[];

  constructor(fields: FieldError[]) {
    const first = fields[0];
    super(
      "validation_failed",
      fields.length === 1 && first ? first.message : `${fields.length} fields are invalid; see errors`,
    );
    this.fields = fields;
  }
}

export type NotFoundCode =
  | "verification_not_found"
  | "app_not_found"
  | "key_not_found"
  | "event_not_found"
  | "document_not_found"
  | "staff_user_not_found"
  | "member_not_found"
  | "organization_not_found";

/** Nothing with this id exists for the caller: unknown, malformed and another's read the same. */
export class NotFoundError extends ServiceError<NotFoundCode> {}

export class VerificationNotFoundError extends NotFoundError {
  constructor() {
    super("verification_not_found", "No verification with this id exists for this app");
  }
}

export type RefusalCode =
  // Verifications
  | "verification_expired"
  | "upload_not_found"
  | "file_size_mismatch"
  | "unsupported_file_type"
  | "idempotency_key_reused"
  | "idempotency_request_in_progress"
  | "verification_in_progress"
  // Apps, keys and webhook destinations
  | "too_many_live_keys"
  | "grace_out_of_range"
  | "webhook_url_not_allowed"
  | "environment_mismatch"
  | "ambiguous_key_prefix"
  | "concurrent_change"
  | "webhook_not_set"
  | "event_pending"
  // Organisations
  | "app_owned_elsewhere"
  | "last_owner"
  // Staff and reviews
  | "user_exists"
  | "review_claimed"
  | "review_not_claimed"
  | "verification_not_in_review"
  | "sequence_mismatch"
  | "issuer_not_askable"
  | "issuer_asked_recently";

/** A well-formed request that a rule refuses in the current state. */
export class RefusedError extends ServiceError<RefusalCode> {}

/** Which per-organisation limit a request met (`domain/tenant-limits.ts`), and its value. */
export interface ReachedLimit {
  name: "apps_per_organization" | "members_per_organization" | "pending_invites_per_organization";
  max: number;
}

/** The organisation has as many of something as it may: `limit_reached`, the limit in the answer. */
export class LimitReachedError extends ServiceError<"limit_reached"> {
  constructor(
    readonly limit: ReachedLimit,
    message: string,
  ) {
    super("limit_reached", message);
  }
}

/** The caller made as many requests of a kind as it may for now: the same may succeed after Retry-After. */
export class RateLimitedError extends ServiceError<"rate_limited"> {
  constructor(message: string, retryAfterSeconds: number) {
    super("rate_limited", message, { retryAfterSeconds });
  }
}

/** A dependency is busy or down: the same request may succeed after a short wait. */
export class UnavailableError extends ServiceError<"service_unavailable"> {
  constructor(message: string, retryAfterSeconds: number) {
    super("service_unavailable", message, { retryAfterSeconds });
  }
}

/**
 * A conditional write lost a race with another change to the same app. Not for callers: the
 * use case reads again and decides again (`use-cases/accounts/retry-when-stale.ts`).
 */
export class StaleAppError extends Error {
  constructor() {
    super("The app changed during the update");
    this.name = "StaleAppError";
  }
}

/** A retry of a create that sent another body under the same key. */
export class IdempotencyKeyReusedError extends RefusedError {
  constructor() {
    super(
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request body; use a new key for a new request",
    );
  }
}

/** A retry that arrived while the first request with its key is still running. */
export class IdempotencyInProgressError extends RefusedError {
  constructor() {
    super(
      "idempotency_request_in_progress",
      "A request with this Idempotency-Key is still being processed; retry after the time in Retry-After",
      { retryAfterSeconds: 1 },
    );
  }
}

/**
 * The record that holds an Idempotency-Key could not be written or removed (its cause says
 * why). Not the caller's fault: an outage, answered as one.
 */
export class IdempotencyRecordError extends Error {
  constructor(cause: unknown) {
    super("The idempotency record could not be written or removed", { cause });
    this.name = "IdempotencyRecordError";
  }
}
