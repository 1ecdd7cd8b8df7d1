import { describe, expect, it } from "vitest";
import { isId } from "#shared/domain/ids";
import type { NewVerification } from "#shared/domain/new-verification";
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
