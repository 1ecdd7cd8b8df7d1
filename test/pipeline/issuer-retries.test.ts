/**
 * A busy e-Devlet, through the real runtime: the verification stays processing while e-Devlet is
 * asked again with backoff, ends verified when e-Devlet recovers within the retry window and in
 * review no earlier than the window when it does not; and however many verifications wait, the
 * simulator never sees more lookups at once than the issuer queue's concurrency.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ISSUER_QUEUE } from "#shared/declarations/queues";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { PUBLISHED_CERTIFICATES } from "../../local/resources.ts";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";
import { type CertificateSpec, certificatePdf } from "../../scripts/test-documents/certificate.ts";
import { expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";
import { until } from "../support/until.ts";

const WINDOW_SECONDS = 6;
const held = mkdtempSync(path.join(os.tmpdir(), "edevlet-busy-"));
afterAll(() => rmSync(held, { recursive: true, force: true }));
const fx = useApiFixture({
  environment: "production",
  pipeline: true,
  issuer: {
    documents: [PUBLISHED_CERTIFICATES, held],
    settings: { ISSUER_RETRY_WINDOW_S: String(WINDOW_SECONDS) },
    // e-Devlet takes its time, so lookups overlap.
    latencyMs: 100,
  },
});

/** The published active student under `barcode`, held by the simulator, and its PDF. */
async function heldCertificate(barcode: string): Promise<Uint8Array> {
  const entry = CATALOGUE.find((candidate) => candidate.file === "yok-active.pdf");
  if (entry?.upload.kind !== "pdf") throw new Error("The catalogue has no yok-active.pdf");
  const pdf = await certificatePdf({ ...entry.upload.spec, barcode } as CertificateSpec);
  mkdirSync(path.join(held, "YOK_STUDENT"), { recursive: true });
  writeFileSync(path.join(held, "YOK_STUDENT", `${barcode}.pdf`), pdf);
  return pdf;
}

const busyMarker = (barcode: string) => path.join(held, "YOK_STUDENT", `${barcode}.busy`);

/** A verification of `pdf`, confirmed; and when the confirm was sent, before which no check began. */
async function confirmed(pdf: Uint8Array): Promise<{ id: string; confirmedAt: number }> {
  const created = await fx.customer.created({ file_size_bytes: pdf.length });
  expect((await upload(created, pdf)).status).toBe(200);
  const confirmedAt = Date.now();
  expect((await fx.customer.confirm(created.verification_id)).status).toBe(200);
  return { id: created.verification_id, confirmedAt };
}

const current = async (id: string) => expectVerification(await fx.customer.get(id));
const decided = (id: string) =>
  until(
    () => current(id),
    (verification) => verification.status !== "processing",
    WINDOW_SECONDS * 1000 + 15_000,
  );
/** What the verification's item records of its lookups. */
async function issuerOf(id: string): Promise<{ attempts?: number; first_at?: string }> {
  const item = (await fx.api.scan(fx.api.tables.verifications)).find((candidate) => candidate.verification_id === id);
  return (item?.issuer as { attempts?: number; first_at?: string } | undefined) ?? {};
}
const attemptsOf = async (id: string) => (await issuerOf(id)).attempts ?? 0;

describe("a busy e-Devlet", () => {
  it("that recovers within the window: processing, said to be retried, then verified", async () => {
    const barcode = "BUSYTHENFREE-0001";
    const pdf = await heldCertificate(barcode);
    writeFileSync(busyMarker(barcode), "");
    const { id } = await confirmed(pdf);

    await until(
      () => attemptsOf(id),
      (attempts) => attempts >= 2,
      10_000,
    );
    const waiting: VerificationResource = await current(id);
    expect(waiting).toMatchObject({ status: "processing", reason_code: "processing" });
    expect(waiting.message).toMatch(
      /^The document is being checked; the issuer did not answer and is asked again until /,
    );
    rmSync(busyMarker(barcode));

    expect(await decided(id)).toMatchObject({ status: "completed", result: "verified" });
    expect(await attemptsOf(id)).toBeGreaterThanOrEqual(2);
  });

  it("that does not recover: in review with issuer_unavailable, no earlier than the window after the first attempt", async () => {
    const barcode = "BUSYFOREVER-0001";
    const pdf = await heldCertificate(barcode);
    writeFileSync(busyMarker(barcode), "");
    const { id, confirmedAt } = await confirmed(pdf);

    const final = await decided(id);

    expect(final).toMatchObject({ status: "in_review", reason_code: "issuer_unavailable", result: null });
    const reviewAt = Date.parse(final.review?.required_at ?? "");
    const { attempts = 0, first_at: firstAt = "" } = await issuerOf(id);
    expect(reviewAt - Date.parse(firstAt)).toBeGreaterThanOrEqual(WINDOW_SECONDS * 1000);
    // The house's clock counts whole seconds: the window is counted from the second the checks began in.
    expect(reviewAt - Math.floor(confirmedAt / 1000) * 1000).toBeGreaterThanOrEqual(WINDOW_SECONDS * 1000);
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(final.checks.find((check) => check.name === "authority_match")).toMatchObject({
      outcome: "skipped",
      // The web form's busy answer is a 429.
      detail: "No answer: the issuer answered with an error, though asked again for the whole retry window",
      detail_code: "issuer_no_answer",
      detail_params: { cause: "http_error" },
    });
  });
});

describe("the concurrency cap", () => {
  it("holds the lookups e-Devlet sees at once to the issuer queue's concurrency, whatever waits", async () => {
    const simulator = fx.api.simulator;
    if (!simulator) throw new Error("The file runs with the simulator");
    const pdf = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));
    const before = simulator.stats().lookups;

    const ids = await Promise.all(Array.from({ length: 12 }, async () => (await confirmed(pdf)).id));
    const finals = await Promise.all(ids.map((id) => decided(id)));

    expect(finals.every((final) => final.result === "verified")).toBe(true);
    expect(simulator.stats().lookups - before).toBe(12);
    expect(simulator.stats().maxInFlight).toBe(ISSUER_QUEUE.maxConcurrency);
  });
});

// After the concurrency cap: an unrecognised form session counts as in flight until it has been idle.
describe("an e-Devlet page never seen", () => {
  it("is asked about once more, then the verification waits in review: two lookups, not one per backoff step", async () => {
    const simulator = fx.api.simulator;
    if (!simulator) throw new Error("The file runs with the simulator");
    const barcode = "CHANGEDPAGE-0001";
    const pdf = await heldCertificate(barcode);
    writeFileSync(path.join(held, "YOK_STUDENT", `${barcode}.unrecognised`), "");
    const before = simulator.stats().lookups;
    const { id } = await confirmed(pdf);

    const final = await decided(id);

    expect(final).toMatchObject({ status: "in_review", reason_code: "issuer_unavailable", result: null });
    expect(await issuerOf(id)).toMatchObject({ attempts: 2 });
    expect(simulator.stats().lookups - before).toBe(2);
  });
});
