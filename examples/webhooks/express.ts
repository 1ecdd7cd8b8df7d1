/**
 * Receiving webhooks in Express. The route reads the body as raw bytes (`express.raw`), never
 * through `express.json()`: a body parsed and serialized again no longer matches its signature.
 */
import express, { type Express } from "express";
// In your backend: from "@verification-api/client".
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "../../clients/typescript/src/index.ts";

export function webhookApp(secret: string, onEvent: (event: WebhookEvent) => Promise<void> | void): Express {
  const app = express();
  app.post("/webhooks", express.raw({ type: "application/json" }), async (request, response) => {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(request.body as Buffer, request.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      response.status(400).json({ refused: error.reason });
      return;
    }
    // Deliveries are at least once: deduplicate by event.id before acting on it.
    await onEvent(event);
    response.sendStatus(204);
  });
  return app;
}
