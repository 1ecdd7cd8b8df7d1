/** Webhook delivery over HTTPS with fetch: one POST, a 10 s limit, no redirects followed. */
import { lookup } from "node:dns/promises";
import { bareHost, isAddressLiteral, isPrivateAddress } from "../domain/addresses.ts";
import { DELIVERY_TIMEOUT_MS } from "../domain/webhook-events.ts";
import type { WebhookSender } from "../ports/webhook-sender.ts";

export const fetchWebhookSender: WebhookSender = {
  async privateDestination(url) {
    const host = bareHost(new URL(url));
    const addresses = isAddressLiteral(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    return addresses.some(isPrivateAddress) ? "The destination resolves to a private or link-local address" : undefined;
  },

  async post(url, headers, body) {
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return { statusCode: response.status, latencyMs: performance.now() - started };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      return { error: timedOut ? "timed out after 10 s" : "connection failed", latencyMs: performance.now() - started };
    }
  },
};
