/**
 * Receiving webhooks in a Next.js route handler (`app/webhooks/route.ts`). A route handler gets
 * the web `Request`: read it with `request.text()`, never `request.json()`, and verify that.
 *
 *   export const POST = webhookRoute(process.env.VERIFICATION_WEBHOOK_SECRET!, handleEvent);
 */
// In your backend: from "@verification-api/client".
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "../../clients/typescript/src/index.ts";

export function webhookRoute(
  secret: string,
  onEvent: (event: WebhookEvent) => Promise<void> | void,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const rawBody = await request.text();
    let event: WebhookEvent;
    try {
      event = verifyWebhook(rawBody, request.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return Response.json({ refused: error.reason }, { status: 400 });
    }
    // Deliveries are at least once: deduplicate by event.id before acting on it.
    await onEvent(event);
    return new Response(null, { status: 204 });
  };
}
