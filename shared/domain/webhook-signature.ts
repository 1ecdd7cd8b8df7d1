import { createHmac } from "node:crypto";

/**
 * Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, keyed with
 * the base64 part of a `whsec_` secret. Several secrets (during a rotation) give several
 * signatures, space-separated, and a receiver accepts any one it can verify.
 */
export function signWebhook(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    })
    .join(" ");
}
