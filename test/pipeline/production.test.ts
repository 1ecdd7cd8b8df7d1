/** The production pipeline: no sandbox outcomes, no authority integration, no inward webhooks. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSED_DESTINATION } from "#shared/adapters/webhook-sender";
import { expectVerification, upload } from "../support/client.ts";
import { pdfDocument } from "../support/documents.ts";
import { useApiFixture } from "../support/fixture.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const fx = useApiFixture({ environment: "production", pipeline: true, issuer: false });
/** A published test certificate: its barcode and identity number are readable, so only the issuer is missing. */
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));
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
    "ignores the sandbox prefix of %s and, with no issuer integration, sends the verification to review",
    async (reference) => {
      const verification = await fx.customer.created({
        file_size_bytes: certificate.length,
        process_type: "sync",
        external_reference_id: reference,
      });
      await upload(verification, certificate);
      const final = expectVerification(await fx.customer.confirm(verification.verification_id));
      expect(final).toMatchObject({
        status: "in_review",
        result: null,
        reason_code: "issuer_unavailable",
        environment: "production",
        extracted: null,
      });
      expect(final.checks.find((check) => check.name === "authority_match")).toMatchObject({
        outcome: "skipped",
        detail: "No issuer integration is configured",
      });
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
        error: REFUSED_DESTINATION,
      });
    }
    expect(receiver.deliveries).toEqual([]);
  });
});
