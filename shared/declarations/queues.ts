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

/**
 * The issuer queue: where the environment asks an issuer, a verification's checks wait here
 * once it starts processing, and each retry of an unavailable answer with its backoff as the
 * message's delay. Its reader runs the checks and asks the issuer, one message at a time, at
 * most `maxConcurrency` at once per stage (the event-source mapping's maximum concurrency in
 * AWS, the local queue's reader count on this machine): no more lookups than that are ever in
 * flight, and a busy issuer holds up no change of state.
 */
export const ISSUER_QUEUE = {
  id: "IssuerLookups",
  setting: "ISSUER_QUEUE_URL",
  consumer: "ask-issuer",
  /** One lookup per invocation: the concurrency of invocations is the concurrency of lookups. */
  batchSize: 1,
  /** Lookups in flight at once per stage, unless the stack's config or `ISSUER_CONCURRENCY` says otherwise (at least 2, as AWS requires). */
  maxConcurrency: 4,
  /** Past the reader's timeout: a lookup that stopped half way is taken over after this. */
  visibilityTimeoutSeconds: 240,
  /** Taken this often without finishing, a message moves to the failure queue and its alarm fires. */
  maxReceiveCount: 5,
} as const;

/** The queues the stack and the local runtime both make. */
export const QUEUES = [DELIVERY_QUEUE, ISSUER_QUEUE] as const;
export type QueueDefinition = (typeof QUEUES)[number];
