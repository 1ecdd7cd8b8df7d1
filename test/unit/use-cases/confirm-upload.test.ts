import { describe, expect, it } from "vitest";
import { RefusedError, VerificationNotFoundError } from "#shared/domain/errors";
import type { RequestRecord, RequestToKeep } from "#shared/domain/requests";
import type { VerificationItem } from "#shared/domain/verification";
import { askIssuer } from "#shared/use-cases/issuer/ask-issuer";
import { confirmUpload } from "#shared/use-cases/public/confirm-upload";
import {
  appId,
  aVerification,
  documentBytes,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  KeyedDigest,
  pageContent,
  RecordingIssuerQueue,
  RecordingLog,
  ScriptedAuthority,
  ScriptedReader,
  TaggingSealer,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const ID = verificationId(1);
const KEY = `documents/${ID}`;
const mine = { appId: appId(1), verificationId: ID };

function setup(item?: VerificationItem, upload?: Uint8Array) {
  const verifications = new InMemoryVerificationStore();
  if (item) verifications.put(item);
  const documents = new InMemoryDocumentStore();
  if (upload) documents.upload(KEY, upload);
  const reader = new ScriptedReader();
  const authority = new ScriptedAuthority({ kind: "not_found" });
  const clock = new FixedClock(T0);
  const log = new RecordingLog();
  // A sync confirm sends the lookup to the issuer queue and waits; the queue's reader answers it here.
  const issuer = new RecordingIssuerQueue();
  const sleep = () => new Promise<void>((resolve) => setTimeout(resolve, 1));
  const deps = { verifications, documents, reader, issuer, subjects: new KeyedDigest(), clock, log, sleep };
  issuer.onSend = (message) =>
    void askIssuer(
      {
        ...deps,
        authority,
        sealer: new TaggingSealer(),
        retryWindowSeconds: 0,
        random: Math.random,
        stopwatch: () => 0,
      },
      message,
    );
  return { verifications, documents, reader, authority, clock, log, deps };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

describe("confirmUpload: the upload is acceptable", () => {
  it("moves an async verification to processing in one conditional write, and runs no checks", async () => {
    const { verifications, documents, reader, deps } = setup(aVerification(), documentBytes("pdf", 1024));

    const resource = await confirmUpload(deps, mine);

    expect(resource).toMatchObject({ status: "processing", sequence: 2, updated_at: T0, result: null });
    expect(resource).not.toHaveProperty("upload");
    expect(verifications.stored(ID)).toMatchObject({ status: "processing", sequence: 2 });
    expect(verifications.transitions).toHaveLength(1);
    expect(verifications.transitions[0]).toMatchObject({
      id: ID,
      from: "awaiting_upload",
      to: "processing",
      now: T0,
      expect: { upload: { appId: appId(1), size: 1024, documentTypes: expect.arrayContaining(["YOK_STUDENT"]) } },
    });
    expect(reader.opened).toEqual([]);
    expect(documents.deleted).toEqual([]);
    expect(documents.copies).toEqual([{ from: KEY, to: `${KEY}.evidence` }]);
  });

  it("pins the upload before the change of state, so processing never starts without its evidence", async () => {
    const { verifications, documents, deps } = setup(aVerification(), documentBytes("pdf", 1024));
    const copy = documents.copy.bind(documents);
    let writesBeforeCopy: number | undefined;
    documents.copy = async (from, to) => {
      writesBeforeCopy = verifications.transitions.length;
      return copy(from, to);
    };

    await confirmUpload(deps, mine);

    expect(writesBeforeCopy).toBe(0);
    expect(verifications.transitions).toHaveLength(1);
  });

  it("pins nothing for another app's verification", async () => {
    const { documents, deps } = setup(aVerification(), documentBytes("pdf", 1024));

    await expect(confirmUpload(deps, { ...mine, appId: appId(2) })).rejects.toMatchObject({
      code: "verification_not_found",
    });
    expect(documents.copies).toEqual([]);
  });

  it("takes a sync verification on through the checks and the issuer's answer, and answers its terminal state", async () => {
    const { verifications, reader, authority, deps } = setup(
      aVerification({ process_type: "sync" }),
      documentBytes("pdf", 1024),
    );
    reader.content = pageContent(["Barkod No : YOK-7Q4M-2K9D", "T.C. Kimlik No : 10000000146"]);

    const resource = await confirmUpload(deps, mine);

    expect(resource).toMatchObject({
      status: "completed",
      result: "rejected",
      sequence: 3,
      completed_at: T0,
      reason_code: "document_not_found_at_issuer",
      reasons: [{ code: "document_not_found_at_issuer" }],
    });
    expect(authority.asked).toEqual([
      { documentType: "YOK_STUDENT", barcode: "YOK-7Q4M-2K9D", identityNumber: "10000000146" },
    ]);
    expect(resource.checks.map((check) => [check.name, check.outcome])).toEqual([
      ["upload_present", "passed"],
      ["size_matches", "passed"],
      ["file_type_allowed", "passed"],
      ["document_readable", "passed"],
      ["barcode_found", "passed"],
      ["authority_match", "failed"],
      ["fields_extracted", "skipped"],
      ["student_active", "skipped"],
    ]);
    expect(verifications.stored(ID)).toMatchObject({ status: "completed", result: "rejected", sequence: 3 });
  });

  it("answers processing when sync processing fails, and logs it for the pipeline to finish", async () => {
    const { verifications, documents, log, deps } = setup(
      aVerification({ process_type: "sync" }),
      documentBytes("pdf", 1024),
    );
    const outage = new Error("the bucket is unavailable");
    documents.read = async () => {
      throw outage;
    };

    const resource = await confirmUpload(deps, mine);

    expect(resource).toMatchObject({ status: "processing", sequence: 2 });
    expect(verifications.stored(ID)).toMatchObject({ status: "processing", sequence: 2 });
    expect(log.lines).toEqual([
      {
        level: "error",
        message: "sync processing failed; the pipeline will finish it",
        attributes: { error: outage, verification_id: ID },
      },
    ]);
  });

  it("answers what the write found when another confirm moved the verification between the read and the write", async () => {
    const { verifications, deps } = setup(aVerification(), documentBytes("pdf", 1024));
    const read = verifications.get.bind(verifications);
    verifications.get = async (id) => {
      const seen = await read(id);
      // Another confirm lands while this one holds its copy.
      verifications.put({ ...aVerification(), status: "processing", sequence: 2 });
      return seen;
    };

    const resource = await confirmUpload(deps, mine);

    expect(resource).toMatchObject({ status: "processing", sequence: 2 });
    expect(verifications.transitions).toHaveLength(1);
    expect(verifications.stored(ID)).toMatchObject({ status: "processing", sequence: 2 });
  });

  it("does not write when the stored declaration no longer matches the upload at the write", async () => {
    const { verifications, deps } = setup(aVerification(), documentBytes("pdf", 1024));
    const read = verifications.get.bind(verifications);
    let reads = 0;
    verifications.get = async (id) => {
      const seen = await read(id);
      reads += 1;
      // The write's guard sees what the table holds, not what was read.
      if (reads === 1) verifications.put(aVerification({ file_size_bytes: 2048 }));
      return seen;
    };

    expect(await refusal(confirmUpload(deps, mine))).toMatchObject({ code: "file_size_mismatch" });
    expect(verifications.stored(ID)).toMatchObject({ status: "awaiting_upload", sequence: 1 });
  });

  it("answers the current state when confirmed twice, changing nothing the second time", async () => {
    const { verifications, deps } = setup(aVerification(), documentBytes("pdf", 1024));
    const first = await confirmUpload(deps, mine);

    const second = await confirmUpload(deps, mine);

    expect(second).toEqual(first);
    expect(verifications.stored(ID).sequence).toBe(2);
  });
});

describe("confirmUpload: the request's record, carried by the change of state", () => {
  /** The confirm's request, as the route handler hands it over: what it would keep, and what was kept. */
  function aRequest(): RequestToKeep & { records: RequestRecord[] } {
    const records: RequestRecord[] = [];
    return {
      records,
      recordOf: (verificationId) => ({
        request_id: "req-1",
        app_id: appId(1),
        method: "POST",
        path: `/v1/verifications/${verificationId}/upload-complete`,
        status: 200,
        verification_id: verificationId,
        at: T0,
      }),
      kept: (record) => void records.push(record),
    };
  }

  it("writes the record with the change, held to the verification it judged, and says so", async () => {
    const judged = aVerification();
    const { verifications, deps } = setup(judged, documentBytes("pdf", 1024));
    const logged = aRequest();

    await confirmUpload(deps, { ...mine, logged });

    const record = logged.recordOf(ID);
    expect(verifications.logged).toEqual([record]);
    expect(logged.records).toEqual([record]);
    expect(verifications.transitions[0]).toMatchObject({ seen: judged, logged: record });
  });

  it("keeps nothing with a confirm that changed nothing: the handler writes its record", async () => {
    const { verifications, deps } = setup(aVerification(), documentBytes("pdf", 1024));
    await confirmUpload(deps, mine);
    const logged = aRequest();

    await confirmUpload(deps, { ...mine, logged });

    expect(verifications.logged).toEqual([]);
    expect(logged.records).toEqual([]);
  });
});

describe("confirmUpload: every refusal row", () => {
  it.each(["ver_1", "not-an-id", `${ID}/../x`])("reads the malformed id %j as not found", async (malformed) => {
    const { verifications, deps } = setup(aVerification(), documentBytes("pdf", 1024));

    const error = await refusal(confirmUpload(deps, { ...mine, verificationId: malformed }));

    expect(error).toBeInstanceOf(VerificationNotFoundError);
    expect(verifications.reads).toEqual([]);
    expect(verifications.transitions).toEqual([]);
  });

  it("reads an unknown verification as not found", async () => {
    const { deps } = setup(undefined, documentBytes("pdf", 1024));

    expect(await refusal(confirmUpload(deps, mine))).toBeInstanceOf(VerificationNotFoundError);
  });

  it("reads another app's verification as not found, and leaves its upload and state alone", async () => {
    const { verifications, documents, deps } = setup(aVerification({ app_id: appId(2) }), documentBytes("pdf", 1000));

    expect(await refusal(confirmUpload(deps, mine))).toBeInstanceOf(VerificationNotFoundError);
    expect(documents.objects.has(KEY)).toBe(true);
    expect(verifications.stored(ID)).toMatchObject({ status: "awaiting_upload", sequence: 1 });
  });

  it("refuses a verification stored as expired with verification_expired", async () => {
    const { deps } = setup(aVerification({ status: "expired", sequence: 2 }), documentBytes("pdf", 1024));

    const error = await refusal(confirmUpload(deps, mine));

    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({ code: "verification_expired" });
  });

  it("refuses a good upload confirmed at the deadline as expired, before the tick has written it", async () => {
    const { verifications, documents, clock, deps } = setup(
      aVerification({ upload_deadline: "2026-11-22T12:30:00Z" }),
      documentBytes("pdf", 1024),
    );
    clock.set("2026-11-22T12:30:00Z");

    expect(await refusal(confirmUpload(deps, mine))).toMatchObject({ code: "verification_expired" });
    expect(verifications.stored(ID)).toMatchObject({ status: "awaiting_upload", sequence: 1 });
    expect(documents.deleted).toEqual([]);
  });

  it("refuses as expired before it looks at the size: a late upload of the wrong size is kept", async () => {
    const { documents, clock, deps } = setup(aVerification(), documentBytes("pdf", 1000));
    clock.set("2026-11-23T11:00:01Z");

    expect(await refusal(confirmUpload(deps, mine))).toMatchObject({ code: "verification_expired" });
    expect(documents.deleted).toEqual([]);
  });

  it("refuses a confirm before any upload with upload_not_found, attempting no write", async () => {
    const { verifications, deps } = setup(aVerification());

    expect(await refusal(confirmUpload(deps, mine))).toMatchObject({ code: "upload_not_found" });
    expect(verifications.transitions).toEqual([]);
    expect(verifications.stored(ID)).toMatchObject({ status: "awaiting_upload", sequence: 1 });
  });

  it("refuses an upload of another size with file_size_mismatch and deletes it, so it can be uploaded again", async () => {
    const { verifications, documents, deps } = setup(aVerification(), documentBytes("pdf", 1000));

    const error = await refusal(confirmUpload(deps, mine));

    expect(error).toMatchObject({
      code: "file_size_mismatch",
      message: "The uploaded file has 1000 bytes, not file_size_bytes (1024); upload it again",
    });
    expect(documents.deleted).toEqual([KEY]);
    expect(documents.objects.has(KEY)).toBe(false);
    expect(verifications.stored(ID)).toMatchObject({ status: "awaiting_upload", sequence: 1 });
  });

  it.each([
    ["a GIF", documentBytes("gif", 1024)],
    ["bytes of no known type", new Uint8Array(1024).fill(0x41)],
  ])("refuses %s with unsupported_file_type and deletes it", async (_what, bytes) => {
    const { verifications, documents, deps } = setup(aVerification(), bytes);

    expect(await refusal(confirmUpload(deps, mine))).toMatchObject({ code: "unsupported_file_type" });
    expect(documents.deleted).toEqual([KEY]);
    expect(verifications.transitions).toEqual([]);
    expect(verifications.stored(ID)).toMatchObject({ status: "awaiting_upload", sequence: 1 });
  });

  it.each([
    ["processing", { status: "processing", sequence: 2 }],
    ["completed", { status: "completed", result: "verified", sequence: 3, completed_at: "2026-11-22T11:45:00Z" }],
    ["failed", { status: "failed", failure_code: "document_unreadable", sequence: 3 }],
  ] as const)("answers a %s verification's current state unchanged", async (_status, fields) => {
    const stored = aVerification({ ...fields, updated_at: "2026-11-22T11:45:00Z" });
    const { verifications, documents, deps } = setup(stored, documentBytes("pdf", 1024));

    const resource = await confirmUpload(deps, mine);

    expect(resource).toMatchObject({ ...fields, updated_at: "2026-11-22T11:45:00Z" });
    expect(verifications.stored(ID)).toEqual(stored);
    expect(documents.deleted).toEqual([]);
  });
});
