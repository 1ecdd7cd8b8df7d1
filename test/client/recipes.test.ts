/**
 * The raw-body recipes in examples/webhooks, each fed signed deliveries from the local runtime:
 * Express and Fastify as the app's destination, the Next.js route handler and the Lambda handler
 * with a delivery the runtime made, as their frameworks hand it over. Each accepts the delivery
 * and refuses it tampered.
 */
import type { Server } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import type { NewApp } from "#shared/use-cases/accounts/apps";
import { createClient, type WebhookEvent } from "../../clients/typescript/src/index.ts";
import { webhookApp } from "../../examples/webhooks/express.ts";
import { webhookServer } from "../../examples/webhooks/fastify.ts";
import { webhookHandler } from "../../examples/webhooks/lambda.ts";
import { webhookRoute } from "../../examples/webhooks/next-route.ts";
import { freePort } from "../../local/engines.ts";
import { proxyEvent, requestFields } from "../../local/gateway/events.ts";
import { brokenPdf } from "../support/documents.ts";
import { useApiFixture } from "../support/fixture.ts";
import type { Delivery } from "../support/receiver.ts";
import { until } from "../support/until.ts";

const fixture = useApiFixture({ pipeline: true, receiver: true });
/** An app whose deliveries the receiver keeps as sent, and one of them. */
let captured: { app: NewApp; delivery: Delivery };

/** A file that passes for a PDF and does not open: processing starts (one event) and fails it (another). */
const BROKEN_PDF = brokenPdf(2048);

/** Creates, uploads and confirms one verification of `app`: its destination gets two events. */
async function verifyOne(app: NewApp): Promise<string> {
  const client = createClient({ baseUrl: fixture.api.baseUrl, apiKey: app.api_key });
  const { verification } = await client.createVerification({
    document_type: "YOK_STUDENT",
    original_filename: "broken.pdf",
    file_size_bytes: BROKEN_PDF.length,
  });
  await client.upload(verification, BROKEN_PDF);
  await client.confirmUpload(verification.verification_id);
  return verification.verification_id;
}

/** The headers a forwarding hop must not pass on as they were. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding"]);
const forwarded = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name)));

const tamper = (body: string) => body.replace('"processing"', '"completed"');

beforeAll(async () => {
  const app = await fixture.api.newApp("sandbox", fixture.receiver.url);
  await verifyOne(app);
  const [delivery] = await fixture.receiver.waitFor(1);
  if (!delivery) throw new Error("no delivery");
  captured = { app, delivery };
});

/** An HTTP recipe as the app's destination: the runtime delivers to it, then the captured delivery is replayed to it. */
async function throughHttp(
  listen: (secret: string, onEvent: (event: WebhookEvent) => void, port: number) => Promise<() => Promise<void>>,
) {
  const port = await freePort();
  const app = await fixture.api.newApp("sandbox", `http://127.0.0.1:${port}/webhooks`);
  const events: WebhookEvent[] = [];
  const stop = await listen(app.webhook_secret, (event) => events.push(event), port);
  try {
    const id = await verifyOne(app);
    await until(
      () => events.length,
      (count) => count >= 2,
    );
    expect(
      events.map((event) => [event.type, "verification" in event.data && event.data.verification.verification_id]),
    ).toEqual([
      ["verification.processing", id],
      ["verification.failed", id],
    ]);
  } finally {
    await stop();
  }
  // The captured delivery, as sent and tampered, to the recipe holding that app's secret.
  const replayed: WebhookEvent[] = [];
  const replayPort = await freePort();
  const stopReplay = await listen(captured.app.webhook_secret, (event) => replayed.push(event), replayPort);
  try {
    const send = (body: string) =>
      fetch(`http://127.0.0.1:${replayPort}/webhooks`, {
        method: "POST",
        headers: forwarded(captured.delivery.headers),
        body,
      });
    expect((await send(captured.delivery.body)).status).toBe(204);
    const refused = await send(tamper(captured.delivery.body));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ refused: "bad_signature" });
    expect(replayed).toHaveLength(1);
  } finally {
    await stopReplay();
  }
}

describe("the webhook recipes", () => {
  it("Express, with express.raw, accepts the runtime's deliveries and refuses a tampered one", async () => {
    await throughHttp(async (secret, onEvent, port) => {
      const server: Server = webhookApp(secret, onEvent).listen(port, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      return async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      };
    });
  });

  it("Fastify, with a buffer content-type parser, accepts the runtime's deliveries and refuses a tampered one", async () => {
    await throughHttp(async (secret, onEvent, port) => {
      const server = webhookServer(secret, onEvent);
      await server.listen({ port, host: "127.0.0.1" });
      return () => server.close();
    });
  });

  it("a Next.js route handler, reading request.text(), accepts the runtime's delivery and refuses a tampered one", async () => {
    const events: WebhookEvent[] = [];
    const POST = webhookRoute(captured.app.webhook_secret, (event) => {
      events.push(event);
    });
    const request = (body: string) =>
      new Request("https://backend.example/webhooks", {
        method: "POST",
        headers: forwarded(captured.delivery.headers),
        body,
      });
    expect((await POST(request(captured.delivery.body))).status).toBe(204);
    expect(events.map((event) => event.type)).toEqual(["verification.processing"]);
    const refused = await POST(request(tamper(captured.delivery.body)));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ refused: "bad_signature" });
  });

  it("a Lambda behind API Gateway, base64 body or not, accepts the runtime's delivery and refuses a tampered one", async () => {
    const events: WebhookEvent[] = [];
    const handler = webhookHandler(captured.app.webhook_secret, (event) => {
      events.push(event);
    });
    // The proxy event API Gateway builds, as the local gateway builds it for the functions.
    const event = (body: string, base64: boolean) => {
      const rawHeaders = Object.entries(forwarded(captured.delivery.headers)).flat();
      const fields = requestFields(
        { rawHeaders, headers: {}, httpVersion: "1.1", socket: { remoteAddress: "127.0.0.1" } },
        { method: "POST", url: new URL("https://hooks.example/webhooks") },
        {
          route: { method: "POST", path: "/webhooks", function: "get-verification", authorization: "none" },
          parameters: {},
        },
        "request-1",
      );
      const built = proxyEvent(fields, Buffer.from(body));
      return base64 ? built : { ...built, body, isBase64Encoded: false };
    };
    for (const base64 of [true, false]) {
      expect((await handler(event(captured.delivery.body, base64))).statusCode).toBe(204);
      const refused = await handler(event(tamper(captured.delivery.body), base64));
      expect(refused).toEqual({ statusCode: 400, body: JSON.stringify({ refused: "bad_signature" }) });
    }
    expect(events.map((each) => each.type)).toEqual(["verification.processing", "verification.processing"]);
  });
});
