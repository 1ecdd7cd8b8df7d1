/** Webhook delivery over HTTPS with fetch: one POST, a 10 s limit, no redirects followed. */
import { lookup } from "node:dns/promises";
import { bareHost, isAddressLiteral, isPrivateAddress } from "../domain/addresses.ts";
import { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_BYTES } from "../domain/webhook-events.ts";
import type { WebhookSender } from "../ports/webhook-sender.ts";

/**
 * At most `limit` bytes of the answer's body, as text (a character cut at the limit is
 * dropped), reading no further: the rest is cancelled, so a large or endless answer costs nothing.
 */
async function firstBytes(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return undefined;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // The answer stopped (or the time ran out) part way: what arrived is what is kept.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks).subarray(0, limit);
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/\uFFFD$/, "");
}

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
      const latencyMs = performance.now() - started;
      return { statusCode: response.status, latencyMs, body: await firstBytes(response, RESPONSE_BODY_BYTES) };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      return { error: timedOut ? "timed out after 10 s" : "connection failed", latencyMs: performance.now() - started };
    }
  },
};
