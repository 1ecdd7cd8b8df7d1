/**
 * What an erasure leaves reachable, over HTTP on the real engines: an upload URL handed out before
 * `DELETE` still puts a document for up to 15 minutes, and the tick removes it within the minute
 * and counts it; a replayed create under the old Idempotency-Key answers the erased verification.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it, vi } from "vitest";
import { logger } from "#shared/adapters/logger";
import { metricsNamespace, UPLOADS_AFTER_ERASURE_METRIC } from "#shared/declarations/metrics";
import { documentKey } from "#shared/domain/verification";
import { expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ pipeline: true });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

/** A create body with every field an erasure removes. */
const personalBody = (fields: Record<string, unknown> = {}) => ({
  document_type: "YOK_STUDENT",
  original_filename: "ogrenci-belgesi-4711.pdf",
  file_size_bytes: certificate.length,
  external_reference_id: `applicant-${randomUUID()}`,
  metadata: { customer_id: "cus_sweep_4711" },
  ...fields,
});

async function exists(key: string): Promise<boolean> {
  return fx.api.s3.send(new HeadObjectCommand({ Bucket: fx.api.bucket, Key: key })).then(
    () => true,
    () => false,
  );
}

/** One run of the tick, as the schedule makes it, and the lines it logged at warning level (to stderr). */
async function tick(): Promise<{ result: { uploadsAfterErasure: number }; lines: Record<string, unknown>[] }> {
  const written: string[] = [];
  const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  logger.setLogLevel("WARN");
  try {
    const result = (await fx.api.handlers.tick()) as { uploadsAfterErasure: number };
    const lines = written.flatMap((text) => text.split("\n")).filter((line) => line.startsWith("{"));
    return { result, lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
  } finally {
    logger.setLogLevel("SILENT");
    write.mockRestore();
  }
}

describe("an upload URL handed out before DELETE", () => {
  it("puts the document back only until the next tick, which removes it and counts it", async () => {
    const body = personalBody();
    const created = expectVerification(await fx.customer.create(body));
    const id = created.verification_id;
    expect((await upload(created, certificate)).status).toBe(200);
    expect(expectVerification(await fx.customer.erase(id))).toMatchObject({ status: "expired" });
    expect(await exists(documentKey(id))).toBe(false);

    // The URL is presigned for 15 minutes: the storage engine takes the document again.
    expect((await upload(created, certificate)).status).toBe(200);
    expect(await exists(documentKey(id))).toBe(true);

    const { result, lines } = await tick();

    expect(result.uploadsAfterErasure).toBe(1);
    expect(await exists(documentKey(id))).toBe(false);
    const counted = lines.filter((line) => line[UPLOADS_AFTER_ERASURE_METRIC] === 1);
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatchObject({
      level: "WARN",
      verification_id: id,
      _aws: {
        CloudWatchMetrics: [
          { Namespace: metricsNamespace(fx.api.environment), Metrics: [{ Name: UPLOADS_AFTER_ERASURE_METRIC }] },
        ],
      },
    });
    expect(JSON.stringify(lines)).not.toContain(body.external_reference_id);
    expect(JSON.stringify(lines)).not.toMatch(/ogrenci-belgesi-4711|cus_sweep_4711/);
    // Nothing is left, so nothing more is counted.
    expect((await tick()).result.uploadsAfterErasure).toBe(0);
  });

  it("the same once the verification was confirmed, completed and then erased", async () => {
    const created = expectVerification(await fx.customer.create(personalBody({ process_type: "sync" })));
    const id = created.verification_id;
    expect((await upload(created, certificate)).status).toBe(200);
    expect(expectVerification(await fx.customer.confirm(id))).toMatchObject({ status: "completed" });
    expect(expectVerification(await fx.customer.erase(id))).toMatchObject({ status: "completed", extracted: null });

    expect((await upload(created, certificate)).status).toBe(200);
    expect(await exists(documentKey(id))).toBe(true);

    expect((await tick()).result.uploadsAfterErasure).toBe(1);
    expect(await exists(documentKey(id))).toBe(false);
  });
});

describe("a replayed create under the Idempotency-Key of an erased verification", () => {
  it("answers the verification as it is now, erased: no reference, file name or metadata, no upload URL", async () => {
    const body = personalBody();
    const key = randomUUID();
    const first = await fx.customer.create(body, key);
    expect(first.status).toBe(201);
    expect(first.text).toContain(body.external_reference_id);
    const id = expectVerification(first).verification_id;
    const erased = expectVerification(await fx.customer.erase(id));

    const replay = await fx.customer.create(body, key);

    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(expectVerification(replay)).toEqual(erased);
    expect(replay.json).toMatchObject({
      verification_id: id,
      status: "expired",
      external_reference_id: null,
      original_filename: null,
      metadata: {},
      redacted_at: erased.redacted_at,
    });
    expect(replay.json).not.toHaveProperty("upload");
    expect(replay.text).not.toContain(body.external_reference_id);
    expect(replay.text).not.toMatch(/ogrenci-belgesi-4711|cus_sweep_4711/);
  });

  it("keeps none of those fields in the idempotency record, and before an erasure still replays the first answer", async () => {
    const body = personalBody();
    const key = randomUUID();
    const first = await fx.customer.create(body, key);

    const records = JSON.stringify(await fx.api.scan(fx.api.tables.idempotency));
    expect(records).toContain(expectVerification(first).verification_id);
    expect(records).not.toContain(body.external_reference_id);
    expect(records).not.toMatch(/ogrenci-belgesi-4711|cus_sweep_4711/);

    const replay = await fx.customer.create(body, key);

    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first.json);
    expect(replay.json).toMatchObject({ external_reference_id: body.external_reference_id, metadata: body.metadata });
  });
});
