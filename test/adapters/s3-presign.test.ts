import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createS3Client } from "#shared/adapters/aws-clients";
import { S3DocumentStore } from "#shared/adapters/s3-document-store";
import { documentKey } from "#shared/domain/verification";

const now = new Date("2026-11-26T04:20:00Z");

/** The URL the SDK's own `getSignedUrl` makes for the same upload. */
async function sdkUrl(s3: S3Client, bucket: string, key: string, type: string, size: number, lifetime: number) {
  return getSignedUrl(s3, new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: type, ContentLength: size }), {
    expiresIn: lifetime,
    signingDate: now,
    signableHeaders: new Set(["content-type", "content-length"]),
  });
}

describe("S3DocumentStore's upload URLs", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  // Configured as the functions configure theirs: region and credentials from the environment.
  // A function's credentials carry a session token, which the URL must carry too.
  const clients: [string, string, string | undefined, string][] = [
    ["AWS, us-east-1", "us-east-1", undefined, ""],
    ["AWS, eu-central-1, with a session token", "eu-central-1", undefined, "IQoJb3JpZ2luX2VjEXAMPLE//token+/="],
    ["a local engine, path-style", "us-east-1", "http://127.0.0.1:4569", ""],
  ];
  const keys = [documentKey("ver_01JD7W5G6Z8Q2R3S4T5V6W7X8Y"), "uploads/a b!(c)*'~ü.pdf"];

  for (const [where, region, endpoint, sessionToken] of clients) {
    it(`are the URLs the SDK's getSignedUrl makes (${where})`, async () => {
      vi.stubEnv("AWS_REGION", region);
      vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE");
      vi.stubEnv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
      vi.stubEnv("AWS_SESSION_TOKEN", sessionToken);
      const s3: S3Client = createS3Client(endpoint);
      const store = new S3DocumentStore(s3, "verification-uploads-123456789012");
      if (sessionToken) {
        const { url } = await store.presignPut(keys[0] as string, "application/pdf", 1, now, 60);
        expect(new URL(url).searchParams.get("X-Amz-Security-Token")).toBe(sessionToken);
      }
      for (const key of keys) {
        for (const [type, size, lifetime] of [
          ["application/pdf", 29060, 900],
          ["image/jpeg", 1, 17],
        ] as const) {
          const upload = await store.presignPut(key, type, size, now, lifetime);
          expect(upload.url).toBe(await sdkUrl(s3, "verification-uploads-123456789012", key, type, size, lifetime));
        }
      }
    });
  }

  it("are the SDK's for a bucket whose name has dots, which it addresses path-style", async () => {
    vi.stubEnv("AWS_REGION", "eu-central-1");
    vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    const s3 = createS3Client();
    const store = new S3DocumentStore(s3, "uploads.example.com");
    const upload = await store.presignPut("uploads/x", "application/pdf", 10, now, 60);
    expect(upload.url).toBe(await sdkUrl(s3, "uploads.example.com", "uploads/x", "application/pdf", 10, 60));
  });
});
