import type { FieldError, ProblemCode } from "./problems.ts";

/** An error the API answers with its own problem code. Everything else is a 500. */
export class ApiError extends Error {
  readonly code: ProblemCode;
  readonly headers: Record<string, string>;
  readonly errors: FieldError[] | undefined;

  constructor(
    code: ProblemCode,
    detail: string,
    options: { headers?: Record<string, string>; errors?: FieldError[] } = {},
  ) {
    super(detail);
    this.name = "ApiError";
    this.code = code;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
  }
}

export class ValidationError extends ApiError {
  constructor(errors: FieldError[]) {
    const first = errors[0];
    const detail = errors.length === 1 && first ? first.message : `${errors.length} fields are invalid; see errors`;
    super("validation_failed", detail, { errors });
    this.name = "ValidationError";
  }
}

export class VerificationNotFoundError extends ApiError {
  constructor() {
    super("verification_not_found", "No verification with this id exists for this app");
    this.name = "VerificationNotFoundError";
  }
}

/** A dependency (DynamoDB, S3) is throttling: the client should retry after a short wait. */
export class DependencyThrottledError extends ApiError {
  constructor() {
    super("service_unavailable", "A dependency is busy; retry after the time in Retry-After", {
      headers: { "Retry-After": "1" },
    });
    this.name = "DependencyThrottledError";
  }
}

const THROTTLING_ERROR_NAMES = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "RequestLimitExceeded",
  "SlowDown",
  "ServiceUnavailable",
]);

/**
 * True for an AWS SDK error that means "too many requests, try again", also when a library
 * (Powertools idempotency) has wrapped it as the cause of its own error.
 */
export function isThrottling(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (THROTTLING_ERROR_NAMES.has(current.name)) return true;
  }
  return false;
}
