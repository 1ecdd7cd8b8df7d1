/**
 * Erasure through the API, on the real engines: the objects and the personal fields go, the
 * record keeps ids, status, result and times, `verification.redacted` is delivered, and the
 * events sent before are erased too, wherever they can still be read.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { anyEventSchema, webhookEventSchema } from "#shared/domain/responses/events";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { documentKey, evidenceKey, issuerCopyKey } from "#shared/domain/verification";
import { opsInProcess, runtimeFileFor } from "../ops/support.ts";
import { Customer, call, expectProblem, expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true, receiver: true });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

async function completed(): Promise<VerificationResource> {
  const verification = await fx.customer.created({
    file_size_bytes: certificate.length,
    process_type: "sync",
    external_reference_id: "erase-me-4711",
    metadata: { customer_id: "cus_1" },
  });
  expect((await upload(verification, certificate)).status).toBe(200);
  const done = expectVerification(await fx.customer.confirm(verification.verification_id));
  expect(done).toMatchObject({ status: "completed", result: "verified" });
  return done;
}

async function exists(key: string): Promise<boolean> {
  return fx.api.s3.send(new HeadObjectCommand({ Bucket: fx.api.bucket, Key: key })).then(
    () => true,
    () => false,
  );
}

async function deliveredAbout(id: string, count: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const about = fx.receiver.deliveries.filter((d) => d.body.includes(id));
    if (about.length >= count) {
      return about.map((d) => webhookEventSchema.parse(new Webhook(fx.app.webhook_secret).verify(d.body, d.headers)));
    }
    if (Date.now() > deadline) throw new Error(`${about.length} of ${count} events about ${id} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("DELETE /v1/verifications/{id}", () => {
  it("erases a completed verification: objects, fields and earlier event bodies, then sends verification.redacted", async () => {
    const verification = await completed();
    const id = verification.verification_id;
    expect(verification.extracted).not.toBeNull();
    expect(await exists(issuerCopyKey(id))).toBe(true);
    await deliveredAbout(id, 2);
    const listEvents = () =>
      call(fx.api.baseUrl, "GET", "/v1/events?limit=100", { headers: { "X-API-Key": fx.app.api_key } });
    const kept = (await listEvents()).text;
    expect(kept).toContain("erase-me-4711");
    expect(kept).toContain("cus_1");

    const erased = expectVerification(await fx.customer.erase(id));

    expect(erased).toMatchObject({
      verification_id: id,
      status: "completed",
      result: "verified",
      external_reference_id: null,
      original_filename: null,
      metadata: {},
      extracted: null,
      checks: [],
      fraud_signals: [],
      sequence: verification.sequence + 1,
      completed_at: verification.completed_at,
      created_at: verification.created_at,
    });
    expect(erased.redacted_at).toBe(erased.updated_at);
    expect(expectVerification(await fx.customer.get(id))).toEqual(erased);
    for (const key of [documentKey(id), evidenceKey(id), issuerCopyKey(id)]) expect(await exists(key)).toBe(false);

    const events = await deliveredAbout(id, 3);
    expect(events.map((event) => event.type)).toEqual([
      "verification.processing",
      "verification.completed",
      "verification.redacted",
    ]);
    expect(events[2]?.data.verification).toEqual(erased);

    // What is still kept of the earlier events, and listed by GET /v1/events, holds nothing erased.
    const listed = await listEvents();
    const about = (listed.json as { data: unknown[] }).data
      .map((event) => anyEventSchema.parse(event))
      .filter((event) => "verification" in event.data && event.data.verification.verification_id === id);
    expect(about).toHaveLength(3);
    for (const event of about) {
      expect(JSON.stringify(event)).not.toMatch(/erase-me-4711|cus_1|\.pdf|Ö?ĞRENCİ|AYŞE/);
      expect(event.data).toMatchObject({ verification: { redacted_at: erased.redacted_at, extracted: null } });
    }
    const stored = (await fx.api.scan(fx.api.tables.verifications)).find((item) => item.verification_id === id);
    expect(Object.keys(stored ?? {})).not.toEqual(
      expect.arrayContaining(["external_reference_id", "app_reference", "original_filename", "metadata"]),
    );
    expect(stored).not.toHaveProperty("extracted");
    expect(stored).not.toHaveProperty("app_reference");
  });

  it("answers the same erased verification a second time, and nothing more is sent", async () => {
    const verification = await completed();
    const first = expectVerification(await fx.customer.erase(verification.verification_id));
    await deliveredAbout(verification.verification_id, 3);

    const second = expectVerification(await fx.customer.erase(verification.verification_id));

    expect(second).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fx.receiver.deliveries.filter((d) => d.body.includes(verification.verification_id))).toHaveLength(3);
  });

  it("ends an awaited upload as expired and erased; the upload URL no longer works", async () => {
    const verification = await fx.customer.created({ external_reference_id: "never-uploaded" });

    const erased = expectVerification(await fx.customer.erase(verification.verification_id));

    expect(erased).toMatchObject({ status: "expired", external_reference_id: null, original_filename: null });
    expect(erased.completed_at).toBe(erased.redacted_at);
    expect(erased.upload).toBeUndefined();
    expectProblem(await fx.customer.confirm(verification.verification_id), 409, "verification_expired");
  });

  it("answers 404 for another app's verification, and erases nothing", async () => {
    const verification = await completed();
    const other = new Customer(fx.api.baseUrl, (await fx.api.newApp()).api_key);

    expectProblem(await other.erase(verification.verification_id), 404, "verification_not_found");
    expect(expectVerification(await fx.customer.get(verification.verification_id)).redacted_at).toBeNull();
    expect(await exists(documentKey(verification.verification_id))).toBe(true);
  });
});

describe("npm run ops -- erase", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = runtimeFileFor(fx.api, inject("engines").dynamoEndpoint);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("erases every verification of one reference, and no other", async () => {
    const customer = new Customer(fx.api.baseUrl, (await fx.api.newApp()).api_key);
    const [first, second, other] = [
      await customer.created({ external_reference_id: "applicant-77" }),
      await customer.created({ external_reference_id: "applicant-77" }),
      await customer.created({ external_reference_id: "applicant-78" }),
    ];
    const appOf = (await fx.api.scan(fx.api.tables.verifications)).find(
      (item) => item.verification_id === first?.verification_id,
    )?.app_id as string;

    const run = await opsInProcess(["erase", "--app", appOf, "--reference", "applicant-77", "--json"], dataDir);

    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      app_id: appOf,
      reference: "applicant-77",
      erased: 2,
      already_erased: 0,
      in_progress: [],
    });
    for (const verification of [first, second]) {
      const read = expectVerification(await customer.get(verification?.verification_id ?? ""));
      expect(read).toMatchObject({ status: "expired", external_reference_id: null });
      expect(read.redacted_at).not.toBeNull();
    }
    expect(expectVerification(await customer.get(other?.verification_id ?? "")).redacted_at).toBeNull();
    const again = await opsInProcess(["erase", "--app", appOf, "--reference", "applicant-77"], dataDir);
    expect(again.stdout).toContain("Erased 0 verification(s)");
  });
});
