import { Logger } from "@aws-lambda-powertools/logger";
import { metricsNamespace } from "../declarations/metrics.ts";
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
};
