/** What a destination made of one POST. */
export type WebhookResponse =
  /** It answered: any status, 2xx or not, and the first 1 KiB of its body. */
  | { statusCode: number; latencyMs: number; body?: string }
  /** No answer: a connection that failed, or a timeout. */
  | { error: string; latencyMs: number };

/** Sends webhooks over the network. */
export interface WebhookSender {
  /**
   * Why `url` must not be reached by an event that may go only to public addresses, or
   * undefined: resolved now, so a name that later points inward is still refused.
   */
  privateDestination(url: string): Promise<string | undefined>;
  /** One POST. Never throws for the destination's sake: every failure is an `error` response. */
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
}
