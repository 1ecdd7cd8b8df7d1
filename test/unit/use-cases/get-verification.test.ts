import { describe, expect, it } from "vitest";
import { VerificationNotFoundError } from "#shared/domain/errors";
import { getVerification } from "#shared/use-cases/public/get-verification";
import { appId, aVerification, verificationDeps, verificationId } from "../../support/fakes.ts";
import { T0 } from "../../support/fixed-clock.ts";

const mine = { appId: appId(1), verificationId: verificationId(1) };

describe("getVerification", () => {
  it("answers an awaited verification with a fresh 15-minute upload URL", async () => {
    const { documents, deps } = verificationDeps(aVerification());

    const resource = await getVerification(deps, mine);

    expect(resource).toMatchObject({ verification_id: verificationId(1), status: "awaiting_upload", sequence: 1 });
    expect(documents.presigned).toEqual([
      {
        key: `documents/${verificationId(1)}`,
        contentType: "application/pdf",
        size: 1024,
        now: T0,
        lifetimeSeconds: 900,
      },
    ]);
    expect(resource.upload?.expires_at).toBe("2026-11-22T12:15:00Z");
  });

  it("never gives an upload URL that outlives the upload deadline", async () => {
    const { documents, deps } = verificationDeps(aVerification({ upload_deadline: "2026-11-22T12:05:00Z" }));

    const resource = await getVerification(deps, mine);

    expect(documents.presigned[0]?.lifetimeSeconds).toBe(300);
    expect(resource.upload?.expires_at).toBe("2026-11-22T12:05:00Z");
  });

  it("one second before the deadline, gives a URL for that one second", async () => {
    const { documents, clock, deps } = verificationDeps(aVerification({ upload_deadline: "2026-11-22T12:05:00Z" }));
    clock.set("2026-11-22T12:04:59Z");

    const resource = await getVerification(deps, mine);

    expect(documents.presigned[0]?.lifetimeSeconds).toBe(1);
    expect(resource.upload?.expires_at).toBe("2026-11-22T12:05:00Z");
  });

  it("shows a verification past its deadline as expired, one change later, with no upload URL", async () => {
    const { documents, clock, deps } = verificationDeps(aVerification({ upload_deadline: "2026-11-22T12:05:00Z" }));
    clock.set("2026-11-22T12:05:00Z");

    const resource = await getVerification(deps, mine);

    expect(resource).toMatchObject({ status: "expired", sequence: 2, updated_at: "2026-11-22T12:05:00Z" });
    expect(resource).not.toHaveProperty("upload");
    expect(documents.presigned).toEqual([]);
  });

  it("answers a verification past its upload as stored, with no upload URL", async () => {
    const stored = aVerification({ status: "processing", sequence: 2, updated_at: "2026-11-22T11:30:00Z" });
    const { documents, deps } = verificationDeps(stored);

    const resource = await getVerification(deps, mine);

    expect(resource).toMatchObject({ status: "processing", sequence: 2, updated_at: "2026-11-22T11:30:00Z" });
    expect(resource).not.toHaveProperty("upload");
    expect(documents.presigned).toEqual([]);
  });

  it("reads another app's verification as not found", async () => {
    const { documents, deps } = verificationDeps(aVerification({ app_id: appId(2) }));

    await expect(getVerification(deps, mine)).rejects.toBeInstanceOf(VerificationNotFoundError);
    expect(documents.presigned).toEqual([]);
  });

  it("reads an unknown id as not found", async () => {
    const { deps } = verificationDeps(aVerification());

    await expect(getVerification(deps, { ...mine, verificationId: verificationId(2) })).rejects.toMatchObject({
      code: "verification_not_found",
    });
  });

  it.each(["ver_123", "app_00000000000000000000000001", `${verificationId(1)} `, "../documents"])(
    "reads the malformed id %j as not found without reading the store",
    async (malformed) => {
      const { verifications, deps } = verificationDeps(aVerification());

      await expect(getVerification(deps, { ...mine, verificationId: malformed })).rejects.toBeInstanceOf(
        VerificationNotFoundError,
      );
      expect(verifications.reads).toEqual([]);
    },
  );
});
