/**
 * Webhook verification in one call, on the public `standardwebhooks` library: the signature over
 * the raw body, the timestamp within five minutes, and the event typed by its `type`.
 */
import { WebhookVerificationError as SignatureError, Webhook } from "standardwebhooks";
import type { components } from "./schema.js";

type VerificationEvent = components["schemas"]["WebhookEvent"];
type TestEvent = components["schemas"]["TestEvent"];
export type WebhookEventType = VerificationEvent["type"] | TestEvent["type"];

/** Every event a destination receives, told apart by `type`. */
export type WebhookEvent =
  | { [K in VerificationEvent["type"]]: Omit<VerificationEvent, "type"> & { type: K } }[VerificationEvent["type"]]
  | TestEvent;

/** Why a delivery was refused; `reason` is stable for code to branch on. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";

  constructor(
    readonly reason: "missing_headers" | "stale_timestamp" | "bad_signature" | "not_an_event",
    message: string,
  ) {
    super(message);
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/** The three headers, by their lower-case names, whatever the framework's spelling. */
function webhookHeaders(headers: HeaderBag): Record<string, string> {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
    const value = entry?.[1];
    return Array.isArray(value) ? value.join(" ") : value;
  };
  const found: Record<string, string> = {};
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const value = get(name);
    if (value === undefined) {
      throw new WebhookVerificationError("missing_headers", `The delivery has no ${name} header`);
    }
    found[name] = value;
  }
  return found;
}

/**
 * Verifies a delivery and returns its event. `rawBody` must be the bytes as received: a body
 * parsed and serialized again by a framework no longer matches its signature. `secret` is the
 * app's webhook secret (`whsec_...`).
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderBag, secret: string): WebhookEvent {
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const found = webhookHeaders(headers);
  let event: unknown;
  try {
    event = new Webhook(secret).verify(body, found);
  } catch (error) {
    // The signature matched, and the library's JSON.parse refused the body.
    if (error instanceof SyntaxError) {
      throw new WebhookVerificationError("not_an_event", "The signed body is not JSON, so not a webhook event");
    }
    if (!(error instanceof SignatureError)) throw error;
    if (/timestamp/i.test(error.message)) {
      throw new WebhookVerificationError(
        "stale_timestamp",
        "The delivery's webhook-timestamp is more than 5 minutes from this machine's clock: a replayed delivery, or a clock to fix",
      );
    }
    throw new WebhookVerificationError(
      "bad_signature",
      "No signature matches the body with this secret: check the secret, and pass the body exactly as received (not parsed and serialized again)",
    );
  }
  if (typeof event !== "object" || event === null || typeof (event as { type?: unknown }).type !== "string") {
    throw new WebhookVerificationError("not_an_event", "The signed body is not a webhook event");
  }
  return event as WebhookEvent;
}
