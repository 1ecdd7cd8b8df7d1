import { describe, expect, it } from "vitest";
import { IdempotencyInProgressError, IdempotencyKeyReusedError, IdempotencyRecordError } from "#shared/domain/errors";
import type { NewVerification } from "#shared/domain/new-verification";
import { type IdempotentCreateInput, idempotentCreateVerification } from "#shared/use-cases/public/create-idempotently";
import { eraseVerification } from "#shared/use-cases/public/erase-verification";
import {
  appId,
  InMemoryDocumentStore,
  InMemoryIdempotency,
  InMemoryVerificationStore,
  KeyedDigest,
  TaggingSealer,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const REQUEST: NewVerification = {
  document_type: "YOK_STUDENT",
  process_type: "async",
  original_filename: "belge.pdf",
  file_size_bytes: 2048,
};

const invocation = { getRemainingTimeInMillis: () => 10_000 };

function input(fields: Partial<IdempotentCreateInput> = {}): IdempotentCreateInput {
  return { appId: appId(1), environment: "sandbox", request: REQUEST, idempotencyKey: "key-1", ...fields };
}

function setup() {
  const verifications = new InMemoryVerificationStore();
  const documents = new InMemoryDocumentStore();
  const idempotency = new InMemoryIdempotency();
  const clock = new FixedClock(T0);
  return {
    verifications,
    documents,
    idempotency,
    clock,
    deps: {
      verifications,
      documents,
      idempotency,
      sealer: new TaggingSealer(),
      subjects: new KeyedDigest(),
      clock,
      retentionDays: 365,
    },
  };
}

describe("idempotentCreateVerification", () => {
  it("creates on the first request and keeps the result under (app, key)", async () => {
    const { verifications, idempotency, deps } = setup();

    const result = await idempotentCreateVerification(deps, input(), invocation);

    expect(result.replayed).toBe(false);
    expect(result.resource.status).toBe("awaiting_upload");
    expect([...verifications.items.keys()]).toEqual([result.resource.verification_id]);
    expect(idempotency.records.get(`${appId(1)}#key-1`)?.status).toBe("completed");
  });

  it("replays the first result for the same request under the key, creating nothing more", async () => {
    const { verifications, documents, deps } = setup();
    const first = await idempotentCreateVerification(deps, input(), invocation);

    const again = await idempotentCreateVerification(deps, input(), invocation);

    expect(again).toEqual({ resource: first.resource, replayed: true });
    expect(verifications.items.size).toBe(1);
    expect(documents.presigned).toHaveLength(1);
  });

  it("keeps no personal field in the record: a replay reads them from the verification, byte for byte the first answer", async () => {
    const { idempotency, deps } = setup();
    const personal = { ...REQUEST, external_reference_id: "applicant-4711", metadata: { customer_id: "cus_1" } };
    const first = await idempotentCreateVerification(deps, input({ request: personal }), invocation);

    const again = await idempotentCreateVerification(deps, input({ request: personal }), invocation);

    expect(first.resource).toMatchObject({ external_reference_id: "applicant-4711", original_filename: "belge.pdf" });
    expect(JSON.stringify(again)).toBe(JSON.stringify({ ...first, replayed: true }));
    // The kept result; the real record keeps the request only as its SHA-256 (test/api/create.test.ts).
    const kept = [...idempotency.records.values()].map((record) => record.result);
    expect(JSON.stringify(kept)).not.toMatch(/applicant-4711|belge\.pdf|cus_1/);
  });

  it("after an erasure, replays the verification as it is now, without what the erasure removed", async () => {
    const { clock, deps } = setup();
    const personal = { ...REQUEST, external_reference_id: "applicant-4711", metadata: { customer_id: "cus_1" } };
    const first = await idempotentCreateVerification(deps, input({ request: personal }), invocation);
    clock.advance(60);
    const erased = await eraseVerification(deps, { appId: appId(1), verificationId: first.resource.verification_id });

    const again = await idempotentCreateVerification(deps, input({ request: personal }), invocation);

    expect(again).toEqual({ resource: erased, replayed: true });
    expect(again.resource).toMatchObject({
      status: "expired",
      external_reference_id: null,
      original_filename: null,
      metadata: {},
      redacted_at: erased.redacted_at,
    });
    expect(again.resource.upload).toBeUndefined();
    expect(JSON.stringify(again)).not.toMatch(/applicant-4711|belge\.pdf|cus_1/);
  });

  it("refuses another request under a used key, creating nothing", async () => {
    const { verifications, deps } = setup();
    await idempotentCreateVerification(deps, input(), invocation);

    const error = await idempotentCreateVerification(
      deps,
      input({ request: { ...REQUEST, file_size_bytes: 4096 } }),
      invocation,
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(error).toMatchObject({ code: "idempotency_key_reused" });
    expect(verifications.items.size).toBe(1);
  });

  it("scopes a key to its app: another app's request under the same key runs anew", async () => {
    const { verifications, deps } = setup();
    const mine = await idempotentCreateVerification(deps, input(), invocation);

    const theirs = await idempotentCreateVerification(deps, input({ appId: appId(2) }), invocation);

    expect(theirs.replayed).toBe(false);
    expect(theirs.resource.verification_id).not.toBe(mine.resource.verification_id);
    expect(verifications.stored(theirs.resource.verification_id).app_id).toBe(appId(2));
  });

  it("answers in-progress while the first request still holds the key, and undoes nothing", async () => {
    const { verifications, idempotency, deps } = setup();
    idempotency.records.set(`${appId(1)}#key-1`, { request: JSON.stringify(REQUEST), status: "in_progress" });

    await expect(idempotentCreateVerification(deps, input(), invocation)).rejects.toBeInstanceOf(
      IdempotencyInProgressError,
    );
    expect(verifications.items.size).toBe(0);
    expect(idempotency.released).toEqual([]);
    expect(idempotency.records.get(`${appId(1)}#key-1`)?.status).toBe("in_progress");
  });

  it("when the result cannot be saved after the work ran: discards the new verification and frees the key", async () => {
    const { verifications, idempotency, deps } = setup();
    idempotency.failToSave = true;

    const error = await idempotentCreateVerification(deps, input(), invocation).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(IdempotencyRecordError);
    expect(verifications.items.size).toBe(0);
    expect(idempotency.released).toEqual([`${appId(1)}#key-1`]);
    expect(idempotency.records.has(`${appId(1)}#key-1`)).toBe(false);
  });

  it("after such a failure, the retry with the key makes the one verification", async () => {
    const { verifications, idempotency, deps } = setup();
    idempotency.failToSave = true;
    await idempotentCreateVerification(deps, input(), invocation).catch(() => undefined);

    const retry = await idempotentCreateVerification(deps, input(), invocation);

    expect(retry.replayed).toBe(false);
    expect([...verifications.items.keys()]).toEqual([retry.resource.verification_id]);
  });

  it("keeps trying to free the key when the first release fails", async () => {
    const { idempotency, deps } = setup();
    idempotency.failToSave = true;
    idempotency.failingReleases = 1;

    await expect(idempotentCreateVerification(deps, input(), invocation)).rejects.toBeInstanceOf(
      IdempotencyRecordError,
    );

    expect(idempotency.failingReleases).toBe(0);
    expect(idempotency.released).toEqual([`${appId(1)}#key-1`]);
  });

  it("keeps trying to discard the verification when the first discard fails, then frees the key", async () => {
    const { verifications, idempotency, deps } = setup();
    idempotency.failToSave = true;
    const discardNew = verifications.discardNew.bind(verifications);
    let discards = 0;
    verifications.discardNew = async (id) => {
      discards += 1;
      if (discards === 1) throw new Error("throttled");
      await discardNew(id);
    };

    await expect(idempotentCreateVerification(deps, input(), invocation)).rejects.toBeInstanceOf(
      IdempotencyRecordError,
    );

    expect(discards).toBe(2);
    expect(verifications.items.size).toBe(0);
    expect(idempotency.released).toEqual([`${appId(1)}#key-1`]);
  });

  it("when the in-progress record cannot be written, the work never ran: nothing to discard or release", async () => {
    const { verifications, documents, idempotency, deps } = setup();
    idempotency.failToStart = true;

    await expect(idempotentCreateVerification(deps, input(), invocation)).rejects.toBeInstanceOf(
      IdempotencyRecordError,
    );
    expect(verifications.items.size).toBe(0);
    expect(documents.presigned).toEqual([]);
    expect(idempotency.released).toEqual([]);
  });

  it("a create that throws frees the key (the port's contract) and the use case releases nothing itself", async () => {
    const { verifications, idempotency, deps } = setup();
    const create = verifications.create.bind(verifications);
    verifications.create = async () => {
      throw new Error("the table is down");
    };

    await expect(idempotentCreateVerification(deps, input(), invocation)).rejects.toThrow("the table is down");
    expect(idempotency.records.size).toBe(0);
    expect(idempotency.released).toEqual([]);

    verifications.create = create;
    const retry = await idempotentCreateVerification(deps, input(), invocation);
    expect(retry.replayed).toBe(false);
    expect(verifications.items.size).toBe(1);
  });
});
