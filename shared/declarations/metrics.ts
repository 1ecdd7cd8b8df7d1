import type { ServiceMetric } from "../ports/log.ts";

/** The embedded metric a parked event emits; the parked-events alarm watches it. */
export const PARKED_EVENTS_METRIC = "ParkedEvents" satisfies ServiceMetric;

/** The embedded metric a verification sent to review because the issuer never answered emits. */
export const ISSUER_UNAVAILABLE_REVIEWS_METRIC = "IssuerUnavailableReviews" satisfies ServiceMetric;

/** The embedded metric each document removed because it was uploaded after its verification was erased emits. */
export const UPLOADS_AFTER_ERASURE_METRIC = "UploadsAfterErasure" satisfies ServiceMetric;

/** The embedded metric the e-Devlet canary emits when its lookup did not read the documented negative. */
export const EDEVLET_CANARY_FAILED_METRIC = "EdevletCanaryFailed" satisfies ServiceMetric;

/** The embedded metric the audit sealer emits for each thing it finds wrong with a month it would close. */
export const AUDIT_TRAIL_BROKEN_METRIC = "AuditTrailBroken" satisfies ServiceMetric;

/** Every lookup of the issuer: a count (by `Outcome` and in all) and its latency, one line per lookup. */
export const ISSUER_LOOKUPS_METRIC = "IssuerLookups";
export const ISSUER_LOOKUP_LATENCY_METRIC = "IssuerLookupLatency";
/** The dimension that names a lookup's outcome (`found`, `not_found`, `unavailable_<cause>`). */
export const LOOKUP_OUTCOME_DIMENSION = "Outcome";

/** The CloudWatch namespace of the service's own metrics in one environment. */
export function metricsNamespace(environment: string): string {
  return `VerificationApi/${environment}`;
}
