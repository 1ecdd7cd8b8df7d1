/**
 * The KMS sealer through the SDK's own KMS client, against the local key service that speaks
 * KMS's protocol: a value opens only for the app it was sealed for, and values sealed with the
 * retired key still open until they are resealed; an identity number sealed for a verification
 * opens only for it; the subject digest is KMS's HMAC of the number.
 */
import { createHash } from "node:crypto";
import { KMSClient } from "@aws-sdk/client-kms";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KMS_SEALED, kmsSealer } from "#shared/adapters/kms-sealer";
import { KMS_DIGEST, kmsSubjectDigest } from "#shared/adapters/kms-subject-digest";
import { SecretBox } from "#shared/adapters/secret-box";
import { LOCAL_SEALING_KEY_ID, LOCAL_SUBJECT_KEY_ID, startKms } from "../../local/kms.ts";

let kms: { url: string; stop(): Promise<void> };
let client: KMSClient;
const retired = new SecretBox(SecretBox.generateKey());

beforeAll(async () => {
  kms = await startKms({ port: 0, keyMaterial: SecretBox.generateKey() });
  client = new KMSClient({
    endpoint: kms.url,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
});
afterAll(async () => {
  client.destroy();
  await kms.stop();
});

const sealer = () => kmsSealer(client, LOCAL_SEALING_KEY_ID, { open: async (sealed) => retired.open(sealed) });
const app = (n: number) => ({ appId: `app_${String(n).padStart(26, "0")}` });

describe("kmsSealer", () => {
  it("seals with the scheme's version first, never the secret itself, and opens for the same app", async () => {
    const sealed = await sealer().seal("whsec_secret-value", app(1));

    expect(sealed.startsWith(KMS_SEALED)).toBe(true);
    expect(sealed).not.toContain("secret-value");
    expect(await sealer().open(sealed, app(1))).toBe("whsec_secret-value");
    expect(await sealer().seal("whsec_secret-value", app(1))).not.toBe(sealed);
  });

  it("does not open one app's sealed secret as another app's", async () => {
    const sealed = await sealer().seal("whsec_secret-value", app(1));

    await expect(sealer().open(sealed, app(2))).rejects.toMatchObject({ name: "InvalidCiphertextException" });
  });

  it("refuses a tampered value", async () => {
    const sealed = await sealer().seal("whsec_secret-value", app(1));
    const tampered = `${sealed.slice(0, -3)}${sealed.endsWith("AAA") ? "BBB" : "AAA"}`;

    await expect(sealer().open(tampered, app(1))).rejects.toMatchObject({ name: "InvalidCiphertextException" });
  });

  it("opens a value sealed with the retired key, and only with it", async () => {
    const old = retired.seal("whsec_from-before");

    expect(await sealer().open(old, app(1))).toBe("whsec_from-before");
    await expect(kmsSealer(client, LOCAL_SEALING_KEY_ID).open(old, app(1))).rejects.toThrow("retired key");
  });
});

describe("kmsSealer on a verification's identity number", () => {
  const of = (app: number, verification: number) => ({
    appId: `app_${String(app).padStart(26, "0")}`,
    verificationId: `ver_${String(verification).padStart(26, "0")}`,
  });

  it("opens only for the same app and verification, and never as an app's secret", async () => {
    const sealed = await sealer().seal("10000000146", of(1, 1));

    expect(sealed).not.toContain("10000000146");
    expect(await sealer().open(sealed, of(1, 1))).toBe("10000000146");
    for (const other of [of(1, 2), of(2, 1), app(1)]) {
      await expect(sealer().open(sealed, other)).rejects.toMatchObject({ name: "InvalidCiphertextException" });
    }
  });
});

describe("kmsSubjectDigest", () => {
  const digest = () => kmsSubjectDigest(client, LOCAL_SUBJECT_KEY_ID);

  it("gives one number one digest, keyed (not its plain SHA-256), and another number another", async () => {
    const first = await digest().digest("10000000146");

    expect(first.startsWith(KMS_DIGEST)).toBe(true);
    expect(first).not.toContain("10000000146");
    expect(await digest().digest("10000000146")).toBe(first);
    expect(await digest().digest("10000000214")).not.toBe(first);
    const unkeyed = createHash("sha256").update("10000000146").digest("base64url");
    expect(first.slice(KMS_DIGEST.length)).not.toBe(unkeyed);
  });

  it("refuses a key that is not the HMAC key", async () => {
    await expect(kmsSubjectDigest(client, LOCAL_SEALING_KEY_ID).digest("10000000146")).rejects.toMatchObject({
      name: "InvalidKeyUsageException",
    });
  });
});
