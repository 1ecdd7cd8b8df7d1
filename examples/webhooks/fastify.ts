/**
 * Receiving webhooks in Fastify. The JSON content-type parser is replaced, for this app, by one
 * that keeps the bytes: Fastify's own would parse them, and a parsed body no longer matches its
 * signature.
 */
import Fastify, { type FastifyInstance } from "fastify";
// In your backend: from "@verification-api/client".
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "../../clients/typescript/src/index.ts";

export function webhookServer(secret: string, onEvent: (event: WebhookEvent) => Promise<void> | void): FastifyInstance {
  const app = Fastify();
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.post("/webhooks", async (request, reply) => {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(request.body as Buffer, request.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return reply.code(400).send({ refused: error.reason });
    }
    // Deliveries are at least once: deduplicate by event.id before acting on it.
    await onEvent(event);
    return reply.code(204).send();
  });
  return app;
}
