import { Logger } from "@aws-lambda-powertools/logger";
import {
  ISSUER_LOOKUP_LATENCY_METRIC,
  ISSUER_LOOKUPS_METRIC,
  LOOKUP_OUTCOME_DIMENSION,
  metricsNamespace,
} from "../declarations/metrics.ts";
import type { Log } from "../ports/log.ts";

/** One structured logger (Powertools), JSON lines with the request id where there is one. */
export const logger = new Logger({ serviceName: "verification-api" });

/** The Log port on that logger; a metric is an embedded metric (CloudWatch EMF) in its line. */
export const powertoolsLog: Log = {
  error: (message, attributes) => logger.error(message, attributes),
  warn: (message, attributes) => logger.warn(message, attributes),
  count(metric, environment, message, attributes) {
    logger.warn(message, {
      ...attributes,
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          { Namespace: metricsNamespace(environment), Dimensions: [[]], Metrics: [{ Name: metric, Unit: "Count" }] },
        ],
      },
      [metric]: 1,
    });
  },
  lookup(environment, outcome, milliseconds, verificationId) {
    logger.info("issuer lookup", {
      verification_id: verificationId,
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: metricsNamespace(environment),
            // In all, and by outcome: the alarm on unrecognised answers divides the one by the other.
            Dimensions: [[], [LOOKUP_OUTCOME_DIMENSION]],
            Metrics: [
              { Name: ISSUER_LOOKUPS_METRIC, Unit: "Count" },
              { Name: ISSUER_LOOKUP_LATENCY_METRIC, Unit: "Milliseconds" },
            ],
          },
        ],
      },
      [LOOKUP_OUTCOME_DIMENSION]: outcome,
      [ISSUER_LOOKUPS_METRIC]: 1,
      [ISSUER_LOOKUP_LATENCY_METRIC]: Math.round(milliseconds),
    });
  },
};
