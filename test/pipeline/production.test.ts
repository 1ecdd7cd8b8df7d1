/** The production pipeline: no sandbox outcomes, no authority integration, no inward webhooks. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectVerification, upload } from "../support/client.ts";
import { pdfDocument } from "../support/documents.ts";
import { useApiFixture } from "../support/fixture.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const fx = useApiFixture({ environment: "production", pipeline: true });
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  // As if the destination's name had come to resolve to this machine: set past the URL rule.
  await fx.api.apps.setWebhookUrl(
    fx.app.app_id,
    receiver.url.replace("127.0.0.1", "localhost"),
    new Date().toISOString(),
  );
});
afterAll(() => receiver.stop());

describe("production", () => {
  it.each(["test_verified_1", "test_rejected_1", "student-4711"])(
    "ignores the sandbox prefix of %s and, with no authority integration, ends inconclusive",
    async (reference) => {
      const document = await pdfDocument();
      const verification = await fx.customer.created({
        file_size_bytes: document.length,
        process_type: "sync",
        external_reference_id: reference,
      });
      await upload(verification, document);
      const final = expectVerification(await fx.customer.confirm(verification.verification_id));
      expect(final).toMatchObject({ status: "completed", result: "inconclusive", environment: "production" });
      expect(final.reasons).toEqual([{ code: "authority_check_unavailable", message: expect.any(String) }]);
      expect(final.checks.at(-1)).toMatchObject({ name: "authority_confirmation", outcome: "skipped" });
    },
  );

  it("refuses to deliver to a destination that resolves to a private address, and records why", async () => {
    const document = await pdfDocument();
    const verification = await fx.customer.created({ file_size_bytes: document.length, process_type: "sync" });
    await upload(verification, document);
    await fx.customer.confirm(verification.verification_id);
    const deadline = Date.now() + 15_000;
    let attempts: Record<string, unknown>[] = [];
    while (attempts.length < 2 && Date.now() < deadline) {
      attempts = (await fx.api.scan(fx.api.tables.events)).filter(
        (item) => String(item.sk).startsWith("ATTEMPT#") && item.attempt_app_id === fx.app.app_id,
      );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({
        outcome: "failed",
        error: "The destination resolves to a private or link-local address",
      });
    }
    expect(receiver.deliveries).toEqual([]);
  });
});
