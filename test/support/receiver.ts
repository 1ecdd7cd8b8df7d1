/** A customer's webhook endpoint: records every delivery, answers as the test says. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** The status the next deliveries get; 200 unless changed. */
  answer: number;
  /** The body they get; none unless changed. */
  answerBody: string;
  /** How long it waits before answering: a slow endpoint; 0 unless changed. */
  answerAfterMs: number;
  /** Resolves once `count` deliveries have arrived in all. */
  waitFor(count: number, timeoutMs?: number): Promise<Delivery[]>;
  /** Resolves with the first delivery whose body holds every one of `texts`, once it has arrived. */
  waitForBody(texts: string[], timeoutMs?: number): Promise<Delivery>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const receiver = {
    url: "",
    deliveries,
    answer: 200,
    answerBody: "",
    answerAfterMs: 0,
    async waitFor(count: number, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (deliveries.length < count) {
        if (Date.now() > deadline) throw new Error(`${deliveries.length} of ${count} deliveries arrived`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return deliveries;
    },
    async waitForBody(texts: string[], timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find((delivery) => texts.every((text) => delivery.body.includes(text)));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No delivery holding ${texts.join(", ")} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    deliveries.push({
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      body: Buffer.concat(chunks).toString("utf8"),
      receivedAt: Date.now(),
    });
    if (receiver.answerAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, receiver.answerAfterMs));
    res.writeHead(receiver.answer).end(receiver.answerBody);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}
