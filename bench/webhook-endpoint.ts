/**
 * A customer's webhook endpoint for the bench: records every delivery (its id, type and
 * verification, when it arrived, whether its signature verifies), and answers after a set time.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Delivery {
  /** The `webhook-id` header: the event's id, the same on every attempt. */
  eventId: string;
  type: string;
  verificationId: string;
  receivedAt: number;
  /** The signature verified with the app's secret (false when no secret was given). */
  signed: boolean;
}

export interface WebhookEndpoint {
  url: string;
  deliveries: Delivery[];
  /** When the first delivery of each verification's final state (any event but `verification.processing`) arrived. */
  finals: Map<string, number>;
  /** When the first delivery of this verification's event of this type arrived; undefined if it did not within `timeoutMs`. */
  arrival(verificationId: string, type: string, timeoutMs: number): Promise<number | undefined>;
  /** Deliveries received and not yet answered. */
  inFlight(): number;
  /** Checks every later delivery's signature with this app's secret. */
  verifyWith(secret: string): void;
  stop(): Promise<void>;
}

export async function webhookEndpoint(answerMs = 0): Promise<WebhookEndpoint> {
  const deliveries: Delivery[] = [];
  const finals = new Map<string, number>();
  const arrivals = new Map<string, number>();
  const waiting = new Map<string, ((at: number) => void)[]>();
  let inFlight = 0;
  let verifier: Webhook | undefined;
  const server = http.createServer(async (req, res) => {
    inFlight += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const receivedAt = performance.now();
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    let signed = false;
    try {
      verifier?.verify(body, headers);
      signed = verifier !== undefined;
    } catch {
      signed = false;
    }
    const event = JSON.parse(body) as { type: string; data: { verification: { verification_id: string } } };
    const verificationId = event.data.verification.verification_id;
    deliveries.push({ eventId: headers["webhook-id"] ?? "", type: event.type, verificationId, receivedAt, signed });
    if (event.type !== "verification.processing" && !finals.has(verificationId)) finals.set(verificationId, receivedAt);
    const key = `${verificationId} ${event.type}`;
    if (!arrivals.has(key)) {
      arrivals.set(key, receivedAt);
      for (const wake of waiting.get(key) ?? []) wake(receivedAt);
      waiting.delete(key);
    }
    if (answerMs > 0) await new Promise((resolve) => setTimeout(resolve, answerMs));
    inFlight -= 1;
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    deliveries,
    finals,
    arrival(verificationId, type, timeoutMs) {
      const key = `${verificationId} ${type}`;
      const arrived = arrivals.get(key);
      if (arrived !== undefined) return Promise.resolve(arrived);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        const wake = (at: number) => {
          clearTimeout(timer);
          resolve(at);
        };
        waiting.set(key, [...(waiting.get(key) ?? []), wake]);
      });
    },
    inFlight: () => inFlight,
    verifyWith: (secret) => {
      verifier = new Webhook(secret);
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
