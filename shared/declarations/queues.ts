/**
 * The delivery queue: the change stream's consumer sends each new webhook event to it, and
 * its own function attempts them, so a slow or dead customer endpoint holds up only its own
 * app's deliveries, never the stream. The CDK stack and the local runtime both read this.
 */
export const DELIVERY_QUEUE = {
  /** Names the queue's construct. */
  id: "Deliveries",
  /** The setting that carries its URL to the senders of messages. */
  setting: "DELIVERY_QUEUE_URL",
  /** The function that reads it. */
  consumer: "deliver-webhooks",
  /** Messages one invocation takes; it attempts them side by side, each within the delivery timeout. */
  batchSize: 10,
  /** Invocations reading at once: how many slow endpoints can be waited on before others queue behind them. */
  maxConcurrency: 50,
  /** A message taken and not finished (its invocation failed) is visible again after this. */
  visibilityTimeoutSeconds: 120,
  /**
   * Taken this often without finishing, a message moves to the failure queue. The event
   * itself stays due in the events table, so the tick still attempts it.
   */
  maxReceiveCount: 3,
} as const;
