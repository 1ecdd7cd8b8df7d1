import type { DeliveryErrorCode } from "../domain/webhook-events.ts";

/** What a destination made of one POST. */
export type WebhookResponse =
  /** It answered: any status, 2xx or not, and the first 1 KiB of its body. */
  | { statusCode: number; latencyMs: number; body?: string }
  /** No answer: a connection that failed, a timeout, or an address not sent to; why, in a sentence and as a code. */
  | { error: string; errorCode: Exclude<DeliveryErrorCode, "http_status">; latencyMs: number };

/** Sends webhooks over the network. */
export interface WebhookSender {
  /**
   * One POST, made only to an address the environment's rule allows (judged on the address
   * connected to). Never throws for the destination's sake: every failure, a refused address
   * included, is an `error` response.
   */
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
}
