/**
 * The TypeScript client (clients/typescript) against the local runtime: the whole flow through
 * its helpers, its retries (one Idempotency-Key across them, Retry-After honoured), its typed
 * problems, waiting for a result, uploads storage refuses explained, and webhook verification of
 * real signed deliveries.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  createClient,
  ProblemError,
  UploadError,
  verifyWebhook,
  WaitTimeoutError,
  type WebhookEvent,
  WebhookVerificationError,
} from "../../clients/typescript/src/index.ts";
import { brokenPdf } from "../support/documents.ts";
import { useApiFixture } from "../support/fixture.ts";

const CERTIFICATE = path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf");

const fixture = useApiFixture({ pipeline: true, receiver: true });

const body = (reference: string, size: number) => ({
  document_type: "YOK_STUDENT" as const,
  external_reference_id: reference,
  original_filename: "yok-active.pdf",
  file_size_bytes: size,
});

describe("the TypeScript client", () => {
  it("creates, uploads and confirms, and the signed webhooks verify into typed events", async () => {
    const app = await fixture.api.newApp("sandbox", fixture.receiver.url);
    const client = createClient({ baseUrl: fixture.api.baseUrl, apiKey: app.api_key });
    const document = new Uint8Array(await readFile(CERTIFICATE));
    const before = fixture.receiver.deliveries.length;

    const { verification, replayed } = await client.createVerification(body("client-flow", document.length));
    expect(replayed).toBe(false);
    expect(verification.status).toBe("awaiting_upload");
    await client.upload(verification, document);
    const confirmed = await client.confirmUpload(verification.verification_id);
    expect(confirmed.status).toBe("processing");

    const deliveries = (await fixture.receiver.waitFor(before + 2)).slice(before);
    const events: WebhookEvent[] = deliveries.map((delivery) =>
      verifyWebhook(delivery.body, delivery.headers, app.webhook_secret),
    );
    expect(events.map((event) => event.type).sort()).toEqual(["verification.completed", "verification.processing"]);
    const completed = events.find((event) => event.type === "verification.completed");
    // The union narrows on `type`: a verification event carries the verification.
    if (completed?.type !== "verification.completed") throw new Error("no completed event");
    expect(completed.data.verification).toMatchObject({ status: "completed", result: "verified" });

    const fetched = await client.getVerification(verification.verification_id);
    expect(fetched).toMatchObject({ status: "completed", result: "verified" });
    const page = await client.listVerifications({ external_reference_id: "client-flow" });
    expect(page.data.map((listed) => listed.verification_id)).toEqual([verification.verification_id]);
  });

  it("retries a create whose answer was lost with the same Idempotency-Key: one verification, the first answer replayed", async () => {
    const app = await fixture.api.newApp("sandbox");
    const sent: string[] = [];
    let lost = 0;
    const client = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      sleep: async () => undefined,
      // The request reaches the API; its answer never reaches the caller, once.
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push(request.headers.get("Idempotency-Key") ?? "");
        const response = await fetch(request);
        if (request.method === "POST" && lost++ === 0) throw new TypeError("fetch failed: the connection was reset");
        return response;
      },
    });

    const created = await client.createVerification(body("client-retry", 2048));
    expect(created.replayed).toBe(true);
    expect(sent).toHaveLength(2);
    expect(new Set(sent)).toEqual(new Set([created.idempotencyKey]));
    const page = await client.listVerifications({ external_reference_id: "client-retry" });
    expect(page.data.map((listed) => listed.verification_id)).toEqual([created.verification.verification_id]);
  });

  it("waits as Retry-After says before trying again, and gives up after its retries with the problem", async () => {
    const app = await fixture.api.newApp("sandbox");
    const waits: number[] = [];
    let answered = 0;
    const busy = () =>
      new Response(
        JSON.stringify({
          type: "urn:problem:service_unavailable",
          title: "Service unavailable",
          status: 503,
          detail: "A dependency is busy; retry after the time in Retry-After",
          code: "service_unavailable",
          request_id: "req-test",
        }),
        { status: 503, headers: { "Content-Type": "application/problem+json", "Retry-After": "7" } },
      );
    const client = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      retries: 2,
      sleep: async (ms) => {
        waits.push(ms);
      },
      fetch: async (input, init) => (answered++ < 1 ? busy() : fetch(new Request(input, init))),
    });
    const { verification } = await client.createVerification(body("client-busy", 2048));
    expect(waits).toEqual([7000]);
    expect(verification.status).toBe("awaiting_upload");

    const alwaysBusy = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      retries: 2,
      sleep: async () => undefined,
      fetch: async () => busy(),
    });
    const refused = await alwaysBusy.getVerification(verification.verification_id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ status: 503, code: "service_unavailable", retryAfterSeconds: 7 });
  });

  it("retries a 5xx that came without a problem body, and refuses a non-API answer at once", async () => {
    const app = await fixture.api.newApp("sandbox");
    let calls = 0;
    const client = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      sleep: async () => undefined,
      // A load balancer's own 502 first, then the API.
      fetch: async (input, init) =>
        calls++ === 0 ? new Response("Bad Gateway", { status: 502 }) : fetch(new Request(input, init)),
    });
    const { verification } = await client.createVerification(body("client-502", 2048));
    expect(calls).toBe(2);
    expect(verification.status).toBe("awaiting_upload");

    let proxied = 0;
    const misdirected = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      sleep: async () => undefined,
      fetch: async () => {
        proxied++;
        return new Response("<html>Forbidden</html>", { status: 403, headers: { "Content-Type": "text/html" } });
      },
    });
    await expect(misdirected.getVerification(verification.verification_id)).rejects.toThrow(
      "answered 403 without a problem body",
    );
    expect(proxied).toBe(1);
  });

  it("throws the API's problem, typed, and does not retry what a retry cannot fix", async () => {
    const app = await fixture.api.newApp("sandbox");
    let calls = 0;
    const client = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      fetch: async (input, init) => {
        calls++;
        return fetch(new Request(input, init));
      },
    });
    const missing = await client.getVerification("ver_01J00000000000000000000000").catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ProblemError);
    expect(missing).toMatchObject({ status: 404, code: "verification_not_found" });
    expect((missing as ProblemError).requestId).toMatch(/.+/);

    const invalid = await client
      .createVerification({ ...body("client-invalid", 2048), file_size_bytes: 0 })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 422, code: "validation_failed" });
    expect((invalid as ProblemError).problem.errors?.map((error) => error.field)).toEqual(["file_size_bytes"]);
    expect(calls).toBe(2);
  });

  it("refuses a tampered delivery, a wrong secret, a stale one and missing headers, each with its reason", async () => {
    const app = await fixture.api.newApp("sandbox", fixture.receiver.url);
    const client = createClient({ baseUrl: fixture.api.baseUrl, apiKey: app.api_key });
    const before = fixture.receiver.deliveries.length;
    const { verification } = await client.createVerification(body("client-tamper", 2048));
    // A file that passes for a PDF and does not open: processing fails it, after its first event.
    await client.upload(verification, brokenPdf(2048));
    await client.confirmUpload(verification.verification_id);
    const [delivery] = (await fixture.receiver.waitFor(before + 1)).slice(before);
    if (!delivery) throw new Error("no delivery");
    const reason = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        if (error instanceof WebhookVerificationError) return error.reason;
        throw error;
      }
      return "accepted";
    };

    expect(reason(() => verifyWebhook(delivery.body, delivery.headers, app.webhook_secret))).toBe("accepted");
    // A framework that parsed the body and serialized it again changed its bytes.
    const reserialized = JSON.stringify(JSON.parse(delivery.body), null, 2);
    expect(reason(() => verifyWebhook(reserialized, delivery.headers, app.webhook_secret))).toBe("bad_signature");
    const tampered = delivery.body.replace('"processing"', '"completed"');
    expect(reason(() => verifyWebhook(tampered, delivery.headers, app.webhook_secret))).toBe("bad_signature");
    const other = await fixture.api.newApp("sandbox");
    expect(reason(() => verifyWebhook(delivery.body, delivery.headers, other.webhook_secret))).toBe("bad_signature");
    const { "webhook-signature": _signature, ...unsigned } = delivery.headers;
    expect(reason(() => verifyWebhook(delivery.body, unsigned, app.webhook_secret))).toBe("missing_headers");
    // Headers as a framework hands them, in any case, and as a fetch Headers object.
    const shouted = Object.fromEntries(
      Object.entries(delivery.headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    expect(reason(() => verifyWebhook(delivery.body, shouted, app.webhook_secret))).toBe("accepted");
    expect(reason(() => verifyWebhook(delivery.body, new Headers(delivery.headers), app.webhook_secret))).toBe(
      "accepted",
    );

    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 6 * 60 * 1000);
      expect(reason(() => verifyWebhook(delivery.body, delivery.headers, app.webhook_secret))).toBe("stale_timestamp");
    } finally {
      vi.useRealTimers();
    }
  });
  it("waits for the result with growing pauses, and gives up with the state last read", async () => {
    const app = await fixture.api.newApp("sandbox");
    const pauses: number[] = [];
    const client = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      sleep: (ms) => {
        pauses.push(ms);
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const document = new Uint8Array(await readFile(CERTIFICATE));
    const { verification } = await client.createVerification(body("client-wait", document.length));
    await client.upload(verification, document);
    await client.confirmUpload(verification.verification_id);
    const done = await client.waitForResult(verification.verification_id, { timeoutMs: 60_000 });
    expect(done).toMatchObject({ status: "completed", result: "verified" });
    expect(pauses.every((pause, i) => pause <= 5_000 && (i === 0 || pause >= (pauses[i - 1] ?? 0)))).toBe(true);

    // Never uploaded: it stays awaiting_upload, and the wait ends at its timeout.
    const { verification: waiting } = await client.createVerification(body("client-wait-none", 2048));
    const gaveUp = await client
      .waitForResult(waiting.verification_id, { timeoutMs: 1_500 })
      .catch((error: unknown) => error);
    expect(gaveUp).toBeInstanceOf(WaitTimeoutError);
    expect((gaveUp as WaitTimeoutError).verification).toMatchObject({
      verification_id: waiting.verification_id,
      status: "awaiting_upload",
    });
    expect((gaveUp as Error).message).toBe(`${waiting.verification_id} is still awaiting_upload after 1500 ms`);
  });

  it("names the likely cause when storage refuses an upload", async () => {
    const app = await fixture.api.newApp("sandbox");
    const client = createClient({ baseUrl: fixture.api.baseUrl, apiKey: app.api_key });
    const refusal = (call: Promise<void>) =>
      call.then(
        () => {
          throw new Error("the upload was taken");
        },
        (error: unknown) => error as UploadError,
      );

    const { verification } = await client.createVerification(body("client-upload-size", 2048));
    // Another size than the create's: storage would refuse it, so it is not sent.
    const wrongSize = await refusal(client.upload(verification, brokenPdf(2000)));
    expect(wrongSize).toBeInstanceOf(UploadError);
    expect(wrongSize).toMatchObject({ status: undefined, storageCode: undefined });
    expect(wrongSize.message).toBe(
      "The upload was not sent: the document is 2000 bytes, and the URL is signed for 2048 (the file_size_bytes of the create): create a verification with the file's real size",
    );

    const upload = verification.upload;
    if (!upload) throw new Error("no upload instructions");
    const otherType = {
      ...verification,
      upload: { ...upload, headers: { ...upload.headers, "Content-Type": "image/png" } },
    };
    const wrongType = await refusal(client.upload(otherType, brokenPdf(2048)));
    expect(wrongType).toMatchObject({ status: 403, storageCode: "SignatureDoesNotMatch" });
    expect(wrongType.message).toContain("Content-Type or Content-Length differs from what the URL signs");

    // The same file as signed is taken.
    await client.upload(verification, brokenPdf(2048));

    // An expired URL, as S3 answers it (the local runtime's URLs last 15 minutes).
    const expired = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>`;
    const late = createClient({
      baseUrl: fixture.api.baseUrl,
      apiKey: app.api_key,
      fetch: async () => new Response(expired, { status: 403, headers: { "Content-Type": "application/xml" } }),
    });
    const tooLate = await refusal(late.upload(verification, brokenPdf(2048)));
    expect(tooLate).toMatchObject({ status: 403, storageCode: "AccessDenied" });
    expect(tooLate.message).toContain(
      `the URL expired at ${upload.expires_at}; fetch the verification for a fresh one`,
    );
  });
});
