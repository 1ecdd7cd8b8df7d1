/**
 * Verification by barcode alone, through HTTP on `npm start` against its e-Devlet simulator:
 * `document_keys` instead of a file, decided on the issuer's copy; its validation errors; the
 * replay of its create; the expected identity number; and a restart of the runtime between the
 * create and the lookup (the lookup is retried from the queues kept on disk).
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { syntheticIdentityNumber } from "../../scripts/test-documents/certificate.ts";
import { Customer, expectProblem, expectVerification, TEST_DOCUMENTS } from "../support/client.ts";
import { type RunningRuntime, startRuntime, stopRuntime } from "../support/runtime.ts";

/** `yok-active.pdf`, a published certificate the simulator holds: an active student. */
const BARCODE = "TESTYOK-0001-AKTIF";
const IDENTITY_NUMBER = syntheticIdentityNumber(1);
/** Another well-formed T.C. number: nobody's certificate. */
const OTHER_NUMBER = syntheticIdentityNumber(2);
const KEYS = { barcode: BARCODE, identity_number: IDENTITY_NUMBER };

const dataDir = mkdtempSync(path.join(os.tmpdir(), "barcode-only-"));
let runtime: RunningRuntime;
let customer: Customer;

async function start(): Promise<void> {
  runtime = await startRuntime({ LOCAL_DATA_DIR: dataDir });
  const { api_key } = JSON.parse(readFileSync(path.join(dataDir, "dev-app.json"), "utf8")) as { api_key: string };
  customer = new Customer(runtime.baseUrl, api_key);
}

/** The verification once it has left `processing`, read again until then. */
async function decided(id: string, seconds = 40): Promise<VerificationResource> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const current = expectVerification(await customer.get(id));
    if (current.status !== "processing" || Date.now() > until) return current;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * What a sync create came to: its answer when it is the decision, else (a machine too busy for
 * the 25 s the create waits, when it answers `processing` as the contract allows) the decision read later.
 */
async function outcomeOf(reply: Awaited<ReturnType<Customer["create"]>>): Promise<VerificationResource> {
  expect(reply.status, reply.text).toBe(201);
  const answered = expectVerification(reply);
  return answered.status === "processing" ? decided(answered.verification_id) : answered;
}

/** Everything DynamoDB Local keeps on disk (a journal it removes while this reads it is passed over). */
function storedData(): string {
  const tables = path.join(dataDir, "dynamodb");
  return readdirSync(tables)
    .map((file) => {
      try {
        return readFileSync(path.join(tables, file)).toString("latin1");
      } catch {
        return "";
      }
    })
    .join("");
}

beforeAll(start, 60_000);
afterAll(async () => {
  await stopRuntime(runtime);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("POST /v1/verifications with document_keys", () => {
  it("needs no upload: sync, it answers verified from the issuer's copy", async () => {
    const reply = await customer.create({
      document_type: "YOK_STUDENT",
      process_type: "sync",
      external_reference_id: "keys-1",
      document_keys: KEYS,
      max_document_age_days: 3650,
      expected_subject: { identity_number: IDENTITY_NUMBER },
    });
    const verification = await outcomeOf(reply);
    expect(verification).toMatchObject({
      status: "completed",
      result: "verified",
      reason_code: "verified",
      original_filename: null,
      file_size_bytes: null,
      max_document_age_days: 3650,
    });
    expect(verification.upload).toBeUndefined();
    expect(verification.extracted).toMatchObject({ source: "issuer_copy", fields: { barcode: BARCODE } });
    expect(verification.checks.map((check) => [check.name, check.outcome])).toEqual([
      ["barcode_found", "passed"],
      ["authority_match", "passed"],
      ["fields_extracted", "passed"],
      ["student_active", "passed"],
      ["document_fresh", "passed"],
      ["subject_match", "passed"],
    ]);
    expect(reply.text).not.toContain(IDENTITY_NUMBER);
    expect((await customer.get(verification.verification_id)).text).not.toContain(IDENTITY_NUMBER);
  }, 60_000);

  it("async, it answers processing at once and is decided by the pipeline", async () => {
    const created = expectVerification(await customer.create({ document_type: "YOK_STUDENT", document_keys: KEYS }));
    expect(created).toMatchObject({ status: "processing", sequence: 2, file_size_bytes: null });
    expect(await decided(created.verification_id)).toMatchObject({ status: "completed", result: "verified" });
  }, 60_000);

  it("rejects a number that is not the one the document's keys carry: subject_mismatch", async () => {
    const reply = await customer.create({
      document_type: "YOK_STUDENT",
      process_type: "sync",
      document_keys: KEYS,
      expected_subject: { identity_number: OTHER_NUMBER },
    });
    expect(await outcomeOf(reply)).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: "subject_mismatch",
    });
    expect(reply.text).not.toContain(OTHER_NUMBER);
  }, 60_000);

  it("rejects keys e-Devlet holds no document for", async () => {
    const reply = await customer.create({
      document_type: "YOK_STUDENT",
      process_type: "sync",
      document_keys: { barcode: BARCODE, identity_number: OTHER_NUMBER },
    });
    expect(await outcomeOf(reply)).toMatchObject({
      result: "rejected",
      reason_code: "document_not_found_at_issuer",
    });
  }, 60_000);

  it("replays its create under the same key, and keeps neither number in clear", async () => {
    const key = crypto.randomUUID();
    const body = {
      document_type: "YOK_STUDENT",
      document_keys: KEYS,
      expected_subject: { identity_number: IDENTITY_NUMBER },
    };
    const first = await customer.create(body, key);
    const again = await customer.create(body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    const other = await customer.create({ ...body, document_keys: { ...KEYS, barcode: "TESTYOK-0002-MEZUN" } }, key);
    expectProblem(other, 422, "idempotency_key_reused");
    await decided(expectVerification(first).verification_id);
    expect(storedData()).not.toContain(IDENTITY_NUMBER);
  }, 60_000);

  it.each([
    ["both", { document_keys: KEYS, original_filename: "a.pdf", file_size_bytes: 10 }],
    ["neither", {}],
  ])("refuses %s of document_keys and a file, naming both", async (_case, fields) => {
    const problem = expectProblem(
      await customer.create({ document_type: "YOK_STUDENT", ...fields }),
      422,
      "validation_failed",
    );
    expect(problem.errors?.map((error) => error.field)).toEqual(
      expect.arrayContaining(["document_keys", "original_filename"]),
    );
  });

  it("refuses a malformed barcode and a bad identity number without echoing the number", async () => {
    const badBarcode = await customer.create({
      document_type: "YOK_STUDENT",
      document_keys: { ...KEYS, barcode: "kısa" },
    });
    expect(expectProblem(badBarcode, 422, "validation_failed").errors?.map((error) => error.field)).toEqual([
      "document_keys.barcode",
    ]);
    // The checksum fails: the last digit changed.
    const wrong = `${IDENTITY_NUMBER.slice(0, 10)}${(Number(IDENTITY_NUMBER[10]) + 1) % 10}`;
    for (const body of [
      { document_type: "YOK_STUDENT", document_keys: { ...KEYS, identity_number: wrong } },
      { document_type: "YOK_STUDENT", document_keys: KEYS, expected_subject: { identity_number: wrong } },
    ]) {
      const reply = await customer.create(body);
      const problem = expectProblem(reply, 422, "validation_failed");
      expect(problem.errors?.[0]?.code).toBe("invalid_identity_number");
      expect(reply.text).not.toContain(wrong);
    }
  });

  it("is decided after a restart of the runtime between the create and the lookup", async () => {
    // e-Devlet answers busy for the barcode until the marker goes: the lookup waits to be retried.
    const authority = path.join(dataDir, "authority");
    mkdirSync(authority, { recursive: true });
    const copy = path.join(authority, `${BARCODE}.pdf`);
    copyFileSync(path.join(TEST_DOCUMENTS, "issuer", "YOK_STUDENT", `${BARCODE}.pdf`), copy);
    const busy = path.join(authority, `${BARCODE}.busy`);
    writeFileSync(busy, "");
    const created = expectVerification(await customer.create({ document_type: "YOK_STUDENT", document_keys: KEYS }));
    // Asked once, answered busy: the verification says it is asked again.
    const asked = Date.now() + 20_000;
    let waiting = created;
    while (waiting.message === created.message && Date.now() < asked) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      waiting = expectVerification(await customer.get(created.verification_id));
    }
    expect(waiting).toMatchObject({ status: "processing" });
    expect(waiting.message).not.toBe(created.message);
    await stopRuntime(runtime);
    unlinkSync(busy);
    await start();
    expect(await decided(created.verification_id, 60)).toMatchObject({ status: "completed", result: "verified" });
    unlinkSync(copy);
  }, 150_000);
});
