import { readFileSync } from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook } from "#shared/domain/webhook-signature";

/** The vectors published in docs/webhooks.md, read from the page itself. */
function vectors() {
  const page = readFileSync(path.resolve(__dirname, "../../docs/webhooks.md"), "utf8");
  const block = /<!-- test-vectors -->\s*```json\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error("docs/webhooks.md has no test vectors");
  return JSON.parse(block) as {
    secret: string;
    previous_secret: string;
    webhook_id: string;
    webhook_timestamp: number;
    body: string;
    expected_signature: string;
    expected_signature_during_rotation: string;
  };
}

describe("webhook signatures", () => {
  const v = vectors();

  it("match the published test vectors", () => {
    expect(signWebhook([v.secret], v.webhook_id, v.webhook_timestamp, v.body)).toBe(v.expected_signature);
    expect(signWebhook([v.secret, v.previous_secret], v.webhook_id, v.webhook_timestamp, v.body)).toBe(
      v.expected_signature_during_rotation,
    );
  });

  it("verify with the public standardwebhooks library, with either secret during a rotation", () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = (signature: string) => ({
      "webhook-id": v.webhook_id,
      "webhook-timestamp": String(now),
      "webhook-signature": signature,
    });
    const both = signWebhook([v.secret, v.previous_secret], v.webhook_id, now, v.body);
    expect(new Webhook(v.secret).verify(v.body, headers(both))).toEqual(JSON.parse(v.body));
    expect(new Webhook(v.previous_secret).verify(v.body, headers(both))).toEqual(JSON.parse(v.body));
    const tampered = v.body.replace("verified", "rejected");
    expect(() => new Webhook(v.secret).verify(tampered, headers(both))).toThrow();
  });
});
