import { describe, expect, it } from "vitest";
import { checkDetail } from "#shared/domain/check-details";
import { ERASED_ATTRIBUTES } from "#shared/domain/verification";
import { eraseVerification } from "#shared/use-cases/public/erase-verification";
import { appId, aVerification, verificationDeps, verificationId } from "../../support/fakes.ts";
import { T0 } from "../../support/fixed-clock.ts";

const mine = { appId: appId(1), verificationId: verificationId(1) };
const KEYS = [
  `documents/${verificationId(1)}`,
  `documents/${verificationId(1)}.evidence`,
  `documents/${verificationId(1)}.issuer-copy`,
];

function completed() {
  return aVerification({
    status: "completed",
    result: "rejected",
    sequence: 3,
    external_reference_id: "student-4711",
    metadata: { customer_id: "cus_1" },
    expected_subject: { full_name: "AYŞE DENEME" },
    checks: [{ name: "subject_match", outcome: "failed", ...checkDetail("subject_differs") }],
    reasons: [{ code: "subject_mismatch", message: "The document is about someone else" }],
    issuer_copy_key: `documents/${verificationId(1)}.issuer-copy`,
    decision_note: "Called AYŞE",
    // The barcode a verification by its keys was created with (its sealed number went with the answer).
    submitted_keys: { barcode: "TESTYOK-0001-AKTIF" },
    completed_at: "2026-11-22T11:00:00Z",
  });
}

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("eraseVerification", () => {
  it("deletes the three objects, then keeps only ids, status, result, reasons and times, one step up", async () => {
    const { verifications, documents, deps } = verificationDeps(completed());
    for (const key of KEYS) documents.objects.set(key, new Uint8Array([1]));

    const resource = await eraseVerification(deps, mine);

    expect([...documents.objects.keys()]).toEqual([]);
    const stored = verifications.stored(verificationId(1));
    for (const name of ERASED_ATTRIBUTES) expect(stored).not.toHaveProperty(name);
    expect(stored).toMatchObject({ checks: [], redacted_at: T0, updated_at: T0, sequence: 4, status: "completed" });
    expect(resource).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: "subject_mismatch",
      reasons: [{ code: "subject_mismatch" }],
      external_reference_id: null,
      original_filename: null,
      metadata: {},
      checks: [],
      completed_at: "2026-11-22T11:00:00Z",
      redacted_at: T0,
    });
    expect(JSON.stringify(resource)).not.toMatch(/AYŞE|student-4711|cus_1/);
  });

  it("ends an awaited upload as expired, now", async () => {
    const { verifications, deps } = verificationDeps(aVerification());

    await eraseVerification(deps, mine);

    expect(verifications.stored(verificationId(1))).toMatchObject({
      status: "expired",
      completed_at: T0,
      redacted_at: T0,
    });
    expect(verifications.stored(verificationId(1))).not.toHaveProperty("awaiting_day");
  });

  it("answers an erased verification again without touching anything", async () => {
    const { verifications, documents, deps } = verificationDeps({
      ...completed(),
      redacted_at: "2026-11-21T00:00:00Z",
    });

    const resource = await eraseVerification(deps, mine);

    expect(resource.redacted_at).toBe("2026-11-21T00:00:00Z");
    expect(documents.deleted).toEqual([]);
    expect(verifications.stored(verificationId(1)).sequence).toBe(3);
  });

  it.each([
    ["processing", 5],
    ["in_review", undefined],
  ] as const)(
    "refuses a verification %s with 409 verification_in_progress, deleting nothing",
    async (status, retry) => {
      const { documents, deps } = verificationDeps(aVerification({ status }));

      const error = await refusal(eraseVerification(deps, mine));

      expect(error).toMatchObject({ code: "verification_in_progress", retryAfterSeconds: retry });
      expect(documents.deleted).toEqual([]);
    },
  );

  it("reads another app's, an unknown and a malformed id as not found", async () => {
    const { deps } = verificationDeps(completed());
    for (const input of [
      { appId: appId(2), verificationId: verificationId(1) },
      { appId: appId(1), verificationId: verificationId(2) },
      { appId: appId(1), verificationId: "../x" },
    ]) {
      expect(await refusal(eraseVerification(deps, input))).toMatchObject({ code: "verification_not_found" });
    }
  });

  it("erases what a concurrent change left, when the verification moved on meanwhile", async () => {
    const { verifications, deps } = verificationDeps(aVerification());
    const original = verifications.erase.bind(verifications);
    let first = true;
    verifications.erase = async (request) => {
      if (first) {
        first = false;
        // The tick expired it between the read and the write.
        await verifications.transition({ id: request.id, from: "awaiting_upload", to: "expired", now: T0 });
      }
      return original(request);
    };

    const resource = await eraseVerification(deps, mine);

    expect(resource).toMatchObject({ status: "expired", redacted_at: T0, sequence: 3 });
  });
});
