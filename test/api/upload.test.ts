import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { S3DocumentStore } from "#shared/adapters/s3-document-store";
import type { VerificationResource } from "#shared/domain/responses/verification";
import { Customer, documentBytes, expectProblem, expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture();
afterEach(() => {
  vi.useRealTimers();
});

const SIZE = 2048;

async function objectExists(id: string): Promise<boolean> {
  return fx.api.s3.send(new HeadObjectCommand({ Bucket: fx.api.bucket, Key: `documents/${id}` })).then(
    () => true,
    () => false,
  );
}

/**
 * Moves a verification's upload deadline into the past. The S3 engine refuses requests
 * signed with a faked clock, so expiry on routes that call it is arranged in the table.
 */
async function pastDeadline(id: string) {
  const deadline = new Date(Date.now() - 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  await fx.api.db.send(
    new UpdateCommand({
      TableName: fx.api.tables.verifications,
      Key: { verification_id: id },
      UpdateExpression: "SET upload_deadline = :deadline, awaiting_day = :day",
      ExpressionAttributeValues: { ":deadline": deadline, ":day": deadline.slice(0, 10) },
    }),
  );
}

/** Puts an object straight into the store, past the presigned URL, as only a faulty client could. */
async function putDirectly(id: string, body: Uint8Array) {
  await fx.api.s3.send(new PutObjectCommand({ Bucket: fx.api.bucket, Key: `documents/${id}`, Body: body }));
}

async function uploaded(kind: "pdf" | "png" | "jpeg" = "pdf", filename = "belge.pdf"): Promise<VerificationResource> {
  const verification = await fx.customer.created({ file_size_bytes: SIZE, original_filename: filename });
  const put = await upload(verification, documentBytes(kind, SIZE));
  expect(put.status).toBe(200);
  return verification;
}

describe("the presigned upload", () => {
  it("accepts exactly the file the URL was signed for", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    expect((await upload(verification, documentBytes("pdf", SIZE))).status).toBe(200);
  });

  it("is refused by the store for a file of another size", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    const put = await upload(verification, documentBytes("pdf", SIZE + 1), { "Content-Type": "application/pdf" });
    expect(put.status).toBe(403);
    expect(await put.text()).toContain("SignatureDoesNotMatch");
    expect(await objectExists(verification.verification_id)).toBe(false);
  });

  it("is refused by the store for another Content-Type", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    const put = await upload(verification, documentBytes("png", SIZE), {
      "Content-Type": "image/png",
      "Content-Length": String(SIZE),
    });
    expect(put.status).toBe(403);
  });

  it("is refused by the store once the URL has expired", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    const signedLongAgo = await new S3DocumentStore(fx.api.s3, fx.api.bucket).presignPut(
      `documents/${verification.verification_id}`,
      "application/pdf",
      SIZE,
      new Date(Date.now() - 16 * 60 * 1000),
      15 * 60,
    );
    const put = await upload({ ...verification, upload: signedLongAgo }, documentBytes("pdf", SIZE));
    expect(put.status).toBe(403);
    expect(await put.text()).toContain("Request has expired");
  });
});

describe("the local S3 engine, as S3", () => {
  const store = () => `${process.env.S3_ENDPOINT}/${fx.api.bucket}`;

  it.each([
    ["an anonymous read", "GET", "/documents/anything"],
    ["an anonymous write", "PUT", "/documents/anything"],
    ["an anonymous listing", "GET", "?list-type=2"],
    ["an anonymous delete", "DELETE", "/documents/anything"],
  ])("refuses %s (403 AccessDenied)", async (_name, method, path) => {
    const reply = await fetch(`${store()}${path}`, { method, ...(method === "PUT" ? { body: "x" } : {}) });
    expect(reply.status).toBe(403);
    expect(await reply.text()).toContain("<Code>AccessDenied</Code>");
  });

  it("refuses a request signed with another secret, and takes the SDK's own", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    await upload(verification, documentBytes("pdf", SIZE));
    const key = `documents/${verification.verification_id}`;
    await expect(fx.api.s3.send(new HeadObjectCommand({ Bucket: fx.api.bucket, Key: key }))).resolves.toBeDefined();
    const forger = new S3Client({
      region: await fx.api.s3.config.region(),
      endpoint: process.env.S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: inject("engines").credentials.accessKeyId, secretAccessKey: "not-the-secret" },
    });
    await expect(forger.send(new GetObjectCommand({ Bucket: fx.api.bucket, Key: key }))).rejects.toMatchObject({
      name: "SignatureDoesNotMatch",
    });
    forger.destroy();
  });

  it("refuses a presigned read whose signature was changed", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    await upload(verification, documentBytes("pdf", SIZE));
    const url = new URL(
      await new S3DocumentStore(fx.api.s3, fx.api.bucket).presignGet(
        `documents/${verification.verification_id}`,
        new Date(),
        60,
      ),
    );
    expect((await fetch(url)).status).toBe(200);
    url.searchParams.set("X-Amz-Signature", "0".repeat(64));
    expect((await fetch(url)).status).toBe(403);
  });
});

describe("POST /v1/verifications/{id}/upload-complete", () => {
  it("moves an uploaded PDF to processing, one step up the sequence, without upload instructions", async () => {
    const verification = await uploaded();
    const reply = await fx.customer.confirm(verification.verification_id);
    expect(reply.status).toBe(200);
    const confirmed = expectVerification(reply);
    expect(confirmed).toMatchObject({ status: "processing", sequence: 2, result: null });
    expect(confirmed.upload).toBeUndefined();
  });

  it.each([
    ["png", "scan.png"],
    ["jpeg", "scan.jpg"],
  ] as const)("accepts a %s image", async (kind, filename) => {
    const verification = await uploaded(kind, filename);
    expect(expectVerification(await fx.customer.confirm(verification.verification_id)).status).toBe("processing");
  });

  it("answers 409 upload_not_found before the upload, and the verification still awaits it", async () => {
    const verification = await fx.customer.created();
    expectProblem(await fx.customer.confirm(verification.verification_id), 409, "upload_not_found");
    expect(expectVerification(await fx.customer.get(verification.verification_id)).status).toBe("awaiting_upload");
  });

  it("answers the current resource on a second confirm and changes nothing", async () => {
    const verification = await uploaded();
    const first = expectVerification(await fx.customer.confirm(verification.verification_id));
    const second = await fx.customer.confirm(verification.verification_id);
    expect(second.status).toBe(200);
    expect(expectVerification(second)).toEqual(first);
  });

  it("answers 422 file_size_mismatch for a stored file of another size, deletes it, and still awaits the upload", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    await putDirectly(verification.verification_id, documentBytes("pdf", SIZE - 1));
    expectProblem(await fx.customer.confirm(verification.verification_id), 422, "file_size_mismatch");
    expect(await objectExists(verification.verification_id)).toBe(false);
    const after = expectVerification(await fx.customer.get(verification.verification_id));
    expect(after).toMatchObject({ status: "awaiting_upload", sequence: 1 });
    expect(after.upload).toBeDefined();
  });

  it("answers 422 unsupported_file_type when the bytes are not an allowed type, and deletes the file", async () => {
    const verification = await fx.customer.created({ file_size_bytes: SIZE });
    expect((await upload(verification, documentBytes("text", SIZE))).status).toBe(200);
    expectProblem(await fx.customer.confirm(verification.verification_id), 422, "unsupported_file_type");
    expect(await objectExists(verification.verification_id)).toBe(false);
    expect(expectVerification(await fx.customer.get(verification.verification_id)).status).toBe("awaiting_upload");
  });

  it("answers 409 verification_expired past the upload deadline, even with the file in place", async () => {
    const verification = await uploaded();
    await pastDeadline(verification.verification_id);
    expectProblem(await fx.customer.confirm(verification.verification_id), 409, "verification_expired");
  });

  it("answers 404 for another fx.app's verification and changes nothing", async () => {
    const verification = await uploaded();
    const other = new Customer(fx.api.baseUrl, (await fx.api.newApp()).api_key);
    expectProblem(await other.confirm(verification.verification_id), 404, "verification_not_found");
    expect(expectVerification(await fx.customer.get(verification.verification_id)).status).toBe("awaiting_upload");
  });

  it.each(["ver_01JD0000000000000000000000", "ver_nope", "123", "%20"])("answers 404 for the id %s", async (id) => {
    expectProblem(await fx.customer.confirm(id), 404, "verification_not_found");
  });
});

describe("GET /v1/verifications/{id}", () => {
  it("returns the verification with a freshly signed upload URL while the upload is awaited", async () => {
    const verification = await fx.customer.created();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    const fetched = expectVerification(await fx.customer.get(verification.verification_id));
    expect({ ...fetched, upload: undefined }).toEqual({ ...verification, upload: undefined });
    expect(fetched.upload?.url).not.toBe(verification.upload?.url);
    expect(Date.parse(fetched.upload?.expires_at ?? "")).toBeGreaterThan(
      Date.parse(verification.upload?.expires_at ?? ""),
    );
  });

  it("reads expired past the deadline, without upload instructions", async () => {
    const verification = await fx.customer.created();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(verification.upload_deadline) });
    const fetched = expectVerification(await fx.customer.get(verification.verification_id));
    expect(fetched).toMatchObject({
      status: "expired",
      sequence: 2,
      updated_at: verification.upload_deadline,
      completed_at: verification.upload_deadline,
    });
    expect(fetched.upload).toBeUndefined();
  });

  it("never signs an upload URL that outlives the deadline", async () => {
    const verification = await fx.customer.created();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(verification.upload_deadline) - 60_000 });
    const fetched = expectVerification(await fx.customer.get(verification.verification_id));
    expect(fetched.upload?.expires_at).toBe(verification.upload_deadline);
  });

  it("answers 404 for another fx.app's verification", async () => {
    const verification = await fx.customer.created();
    const other = new Customer(fx.api.baseUrl, (await fx.api.newApp()).api_key);
    expectProblem(await other.get(verification.verification_id), 404, "verification_not_found");
  });

  it.each(["ver_01JD0000000000000000000000", "ver_lowercase01jd000000000000000", "anything"])(
    "answers 404 for the id %s",
    async (id) => {
      expectProblem(await fx.customer.get(id), 404, "verification_not_found");
    },
  );
});
