/**
 * A customer's webhook endpoint on a bad day: a share of deliveries is answered `500` and a share
 * is held without an answer until the sender gives up (its delivery timeout), the rest `200`,
 * drawn from a seeded generator; the first deliveries take each kind of failure in turn, so every
 * run meets both. Once it `recover`s, every delivery is answered `200`. It keeps every delivery
 * with what it answered, and checks each signature with the app's secret.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { WEBHOOK_HEADERS } from "#shared/domain/webhook-events";
import { seededFaults } from "./fault-draws.ts";

export type ReceiverFault = "fail" | "hang";

export interface ReceivedDelivery {
  eventId: string;
  body: string;
  /** What it answered; `hung` when it never did (the sender went away first). */
  answer: number | "hung";
  signatureValid: boolean;
}

export interface FlakyReceiver {
  url: string;
  deliveries: ReceivedDelivery[];
  /** The app's signing secret, once the app exists: every delivery's signature is checked with it. */
  secret: string;
  /** Answers every delivery `200` from now on. */
  recover(): void;
  /** Deliveries still held without an answer. */
  hanging(): number;
  stop(): Promise<void>;
}

const FAULTS = ["hang", "fail"] as const satisfies readonly ReceiverFault[];

export async function startFlakyReceiver(options: {
  seed: number;
  rates: Record<ReceiverFault, number>;
}): Promise<FlakyReceiver> {
  const next = seededFaults(options.seed, FAULTS, options.rates);
  const deliveries: ReceivedDelivery[] = [];
  let recovered = false;
  let held = 0;

  const draw = (): ReceiverFault | undefined => (recovered ? undefined : next());

  const receiver: FlakyReceiver = {
    url: "",
    deliveries,
    secret: "",
    recover() {
      recovered = true;
    },
    hanging: () => held,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    let signatureValid = true;
    try {
      new Webhook(receiver.secret).verify(body, headers);
    } catch {
      signatureValid = false;
    }
    const fault = draw();
    const delivery: ReceivedDelivery = {
      eventId: headers[WEBHOOK_HEADERS.id] ?? "",
      body,
      answer: "hung",
      signatureValid,
    };
    deliveries.push(delivery);
    if (fault === "hang") {
      // Held until the sender's timeout closes the connection.
      held += 1;
      res.on("close", () => {
        held -= 1;
      });
      return;
    }
    delivery.answer = fault === "fail" ? 500 : 200;
    res.writeHead(delivery.answer).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}
