/**
 * Webhook delivery: one POST, a 10 s limit, no redirects followed, and only to addresses the
 * environment's rule allows, checked on the address the connection is actually made to: a
 * name is resolved once, by the lookup the socket connects with, so it cannot point elsewhere
 * between a check and the connection.
 */
import { type LookupAddress, type LookupAllOptions, lookup as systemLookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { bareHost, isAddressLiteral, mayReach } from "../domain/addresses.ts";
import type { Destinations } from "../domain/environments.ts";
import { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_BYTES } from "../domain/webhook-events.ts";
import type { WebhookResponse, WebhookSender } from "../ports/webhook-sender.ts";

/** What a delivery to an address the rule refuses records. */
export const REFUSED_DESTINATION =
  "The destination is not a public address (loopback, private, link-local or special-use)";

/** Resolves every address of a name, as `dns.lookup` with `all: true` does. */
export type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

class RefusedDestination extends Error {}

/**
 * The lookup a delivery's socket connects with: every address the name resolves to must be
 * one the rule allows, or the connection is not made at all.
 */
function guardedLookup(destinations: Destinations, resolve: Resolve = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const [first] = addresses;
      if (!first || addresses.some((entry) => !mayReach(entry.address, destinations))) {
        return callback(new RefusedDestination(REFUSED_DESTINATION), "", 0);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * At most `limit` bytes of an answer's body as text (a character cut at the limit is dropped),
 * reading no further: the rest is discarded with the connection, so a large or endless answer
 * costs nothing. An answer that stops part way keeps what arrived.
 */
function firstBytes(response: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= limit) response.destroy();
    });
    response.on("error", () => undefined);
    response.on("close", () => {
      const bytes = Buffer.concat(chunks).subarray(0, limit);
      resolve(new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/\uFFFD$/, ""));
    });
  });
}

const REFUSED = { error: REFUSED_DESTINATION, errorCode: "destination_refused" } as const;

function failure(error: unknown) {
  if (error instanceof RefusedDestination) return REFUSED;
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    return { error: "timed out after 10 s", errorCode: "timeout" } as const;
  }
  return { error: "connection failed", errorCode: "connection_failed" } as const;
}

/** A sender that reaches only what `destinations` allows; `resolve` is the system's resolver but in tests. */
export function webhookSender(destinations: Destinations, resolve?: Resolve): WebhookSender {
  const lookup = guardedLookup(destinations, resolve);
  const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };
  return {
    post(url, headers, body): Promise<WebhookResponse> {
      const target = new URL(url);
      const host = bareHost(target);
      // An address in the URL is connected to without a lookup: it is judged here instead.
      const plainHttp = target.protocol === "http:" && destinations === "public";
      if ((isAddressLiteral(host) && !mayReach(host, destinations)) || plainHttp) {
        return Promise.resolve({ ...REFUSED, latencyMs: 0 });
      }
      const client = target.protocol === "https:" ? https : http;
      const started = performance.now();
      return new Promise((resolve) => {
        // Once an answer came, a later failure (the time running out while its body is read) keeps it.
        let answered = false;
        const request = client.request(
          target,
          {
            method: "POST",
            headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
            agent: target.protocol === "https:" ? agents["https:"] : agents["http:"],
            lookup,
            signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
          },
          (response) => {
            answered = true;
            const latencyMs = performance.now() - started;
            const statusCode = response.statusCode ?? 0;
            void firstBytes(response, RESPONSE_BODY_BYTES).then((text) =>
              resolve({ statusCode, latencyMs, body: text }),
            );
          },
        );
        request.on("error", (error) => {
          if (!answered) resolve({ ...failure(error), latencyMs: performance.now() - started });
        });
        request.end(body);
      });
    },
  };
}
