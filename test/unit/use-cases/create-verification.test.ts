import { describe, expect, it } from "vitest";
import { isId } from "#shared/domain/ids";
import type { NewVerification } from "#shared/domain/new-verification";
import type { RequestRecord, RequestToKeep } from "#shared/domain/requests";
import { createVerification } from "#shared/use-cases/public/create-verification";
import {
  appId,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  KeyedDigest,
  TaggingSealer,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const REQUEST: NewVerification = {
  document_type: "YOK_STUDENT",
  process_type: "async",
  external_reference_id: "student-4711",
  original_filename: "belge.pdf",
  file_size_bytes: 2048,
};

function setup() {
  const verifications = new InMemoryVerificationStore();
  const documents = new InMemoryDocumentStore();
  const clock = new FixedClock(T0);
  return {
    verifications,
    documents,
    clock,
    deps: {
      verifications,
      documents,
      sealer: new TaggingSealer(),
      subjects: new KeyedDigest(),
      clock,
      retentionDays: 365,
    },
  };
}

describe("createVerification", () => {
  it("stores a verification awaiting its upload, due 24 h from now", async () => {
    const { verifications, deps } = setup();

    const resource = await createVerification(deps, { appId: appId(1), environment: "sandbox", request: REQUEST });

    expect(isId("verification", resource.verification_id)).toBe(true);
    expect(verifications.stored(resource.verification_id)).toEqual({
      verification_id: resource.verification_id,
      app_id: appId(1),
      environment: "sandbox",
      status: "awaiting_upload",
      document_type: "YOK_STUDENT",
      process_type: "async",
      external_reference_id: "student-4711",
      original_filename: "belge.pdf",
      file_size_bytes: 2048,
      media_type: "application/pdf",
      object_key: `documents/${resource.verification_id}`,
      upload_deadline: "2026-11-23T12:00:00Z",
      checks: [],
      reasons: [],
      sequence: 1,
      created_at: T0,
      updated_at: T0,
    });
    // Kept 365 days from creation, then the table's TTL deletes it.
    expect(verifications.keepDays.get(resource.verification_id)).toBe(365);
  });

  it("answers the resource with a 15-minute upload URL for exactly that type and size", async () => {
    const { documents, deps } = setup();

    const resource = await createVerification(deps, { appId: appId(1), environment: "sandbox", request: REQUEST });

    expect(documents.presigned).toEqual([
      {
        key: `documents/${resource.verification_id}`,
        contentType: "application/pdf",
        size: 2048,
        now: T0,
        lifetimeSeconds: 900,
      },
    ]);
    expect(resource).toMatchObject({
      status: "awaiting_upload",
      result: null,
      sequence: 1,
      upload_deadline: "2026-11-23T12:00:00Z",
      completed_at: null,
      failure_code: null,
      upload: {
        method: "PUT",
        headers: { "Content-Type": "application/pdf", "Content-Length": "2048" },
        expires_at: "2026-11-22T12:15:00Z",
      },
    });
  });

  it.each([
    ["scan.JPG", "image/jpeg"],
    ["scan.jpeg", "image/jpeg"],
    ["scan.png", "image/png"],
  ])("takes the media type from the name's extension: %s is %s", async (filename, mediaType) => {
    const { verifications, deps } = setup();

    const resource = await createVerification(deps, {
      appId: appId(1),
      environment: "production",
      request: { ...REQUEST, original_filename: filename },
    });

    expect(verifications.stored(resource.verification_id)).toMatchObject({
      media_type: mediaType,
      environment: "production",
    });
    expect(resource.upload?.headers["Content-Type"]).toBe(mediaType);
  });

  it("writes the request's record with the verification it creates, and says so", async () => {
    const { verifications, deps } = setup();
    const kept: RequestRecord[] = [];
    const logged: RequestToKeep = {
      recordOf: (verificationId) => ({
        request_id: "req-1",
        app_id: appId(1),
        method: "POST",
        path: "/v1/verifications",
        status: 201,
        verification_id: verificationId,
        at: T0,
      }),
      kept: (record) => void kept.push(record),
    };

    const resource = await createVerification(deps, {
      appId: appId(1),
      environment: "sandbox",
      request: REQUEST,
      logged,
    });

    expect(verifications.logged).toEqual([logged.recordOf(resource.verification_id)]);
    expect(kept).toEqual(verifications.logged);
  });

  it("gives each verification its own id", async () => {
    const { verifications, deps } = setup();
    const input = { appId: appId(1), environment: "sandbox" as const, request: REQUEST };

    const first = await createVerification(deps, input);
    const second = await createVerification(deps, input);

    expect(first.verification_id).not.toBe(second.verification_id);
    expect(verifications.items.size).toBe(2);
  });

  it("stores nothing for a name without a known extension (which validation should have refused)", async () => {
    const { verifications, documents, deps } = setup();

    await expect(
      createVerification(deps, {
        appId: appId(1),
        environment: "sandbox",
        request: { ...REQUEST, original_filename: "belge.docx" },
      }),
    ).rejects.toThrow("original_filename passed validation without a known extension");
    expect(verifications.items.size).toBe(0);
    expect(documents.presigned).toEqual([]);
  });
});

describe("createVerification by document_keys", () => {
  const NUMBER = "10000000146";
  const BY_KEYS: NewVerification = {
    document_type: "YOK_STUDENT",
    process_type: "async",
    document_keys: { barcode: "TESTYOK-0001-AKTIF", identity_number: NUMBER },
    max_document_age_days: 30,
    expected_subject: { full_name: "Ayşe Deneme", identity_number: NUMBER },
  };

  it("stores it processing at once, its number sealed for the verification, with no upload and no file", async () => {
    const { verifications, documents, deps } = setup();

    const resource = await createVerification(deps, { appId: appId(1), environment: "sandbox", request: BY_KEYS });

    const id = resource.verification_id;
    expect(resource).toMatchObject({
      status: "processing",
      sequence: 2,
      original_filename: null,
      file_size_bytes: null,
      max_document_age_days: 30,
    });
    expect(resource.upload).toBeUndefined();
    expect(documents.presigned).toEqual([]);
    expect(deps.sealer.contexts).toEqual([`${appId(1)}/${id}`]);
    const stored = verifications.stored(id);
    expect(stored).toMatchObject({
      status: "processing",
      submitted_keys: { barcode: "TESTYOK-0001-AKTIF", identity_number_sealed: expect.stringMatching(/^sealed:/) },
      max_document_age_days: 30,
      expected_subject: { full_name: "Ayşe Deneme", identity_number_digest: await new KeyedDigest().digest(NUMBER) },
    });
    expect(stored?.file_size_bytes).toBeUndefined();
    expect(stored?.media_type).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(NUMBER);
    expect(JSON.stringify(resource)).not.toContain(NUMBER);
    // The one change of state a confirmed upload makes: its event, webhook and lookup follow from it.
    expect(verifications.transitions).toMatchObject([{ id, from: "awaiting_upload", to: "processing" }]);
  });

  it("keeps an expected identity number only as its digest, for a file as well", async () => {
    const { verifications, deps } = setup();

    const resource = await createVerification(deps, {
      appId: appId(1),
      environment: "sandbox",
      request: { ...REQUEST, expected_subject: { identity_number: NUMBER } },
    });

    expect(verifications.stored(resource.verification_id)?.expected_subject).toEqual({
      identity_number_digest: await new KeyedDigest().digest(NUMBER),
    });
  });
});
