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
  /** Deliveries received and not yet answered. */
  inFlight(): number;
  /** Checks every later delivery's signature with this app's secret. */
  verifyWith(secret: string): void;
  stop(): Promise<void>;
}

export async function webhookEndpoint(answerMs = 0): Promise<WebhookEndpoint> {
  const deliveries: Delivery[] = [];
  const finals = new Map<string, number>();
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
    if (answerMs > 0) await new Promise((resolve) => setTimeout(resolve, answerMs));
    inFlight -= 1;
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    deliveries,
    finals,
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
