/**
 * Receiving webhooks in a Lambda function behind API Gateway (REST, proxy integration). The
 * body arrives as a string, base64-encoded when the API passes binary media types: decode it to
 * the bytes that were signed, and verify those.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
// In your backend: from "@verification-api/client".
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "../../clients/typescript/src/index.ts";

export function webhookHandler(
  secret: string,
  onEvent: (event: WebhookEvent) => Promise<void> | void,
): (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult> {
  return async (request) => {
    const rawBody = request.isBase64Encoded ? Buffer.from(request.body ?? "", "base64") : (request.body ?? "");
    let event: WebhookEvent;
    try {
      // API Gateway passes each header's last value in `headers`, in the sender's spelling.
      event = verifyWebhook(rawBody, request.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return { statusCode: 400, body: JSON.stringify({ refused: error.reason }) };
    }
    // Deliveries are at least once: deduplicate by event.id before acting on it.
    await onEvent(event);
    return { statusCode: 204, body: "" };
  };
}
