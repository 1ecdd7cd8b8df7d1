import type { Environment } from "../domain/environments.ts";
import type { LookupOutcome } from "../domain/issuer.ts";

/** The service's own metrics: each is counted by a log line and watched by an alarm. */
export type ServiceMetric =
  | "ParkedEvents"
  | "IssuerUnavailableReviews"
  | "UploadsAfterErasure"
  | "EdevletCanaryFailed"
  | "AuditTrailBroken";

/** Structured logging. Never a key, a secret, an identity number or document content. */
export interface Log {
  error(message: string, attributes: Record<string, unknown>): void;
  warn(message: string, attributes: Record<string, unknown>): void;
  /** Counts one `metric` in `environment`, with a warning line that says what happened. */
  count(metric: ServiceMetric, environment: Environment, message: string, attributes: Record<string, unknown>): void;
  /**
   * One lookup of the issuer in `environment`: counted by outcome, with how long it took, in a
   * line that names the verification and nothing read from its document.
   */
  lookup(environment: Environment, outcome: LookupOutcome, milliseconds: number, verificationId: string): void;
}
