import type { ServiceMetric } from "../ports/log.ts";

/** The embedded metric a parked event emits; the parked-events alarm watches it. */
export const PARKED_EVENTS_METRIC = "ParkedEvents" satisfies ServiceMetric;

/** The CloudWatch namespace of the service's own metrics in one environment. */
export function metricsNamespace(environment: string): string {
  return `VerificationApi/${environment}`;
}
