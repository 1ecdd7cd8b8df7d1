import { GenerateMacCommand, type KMSClient } from "@aws-sdk/client-kms";
import type { SubjectDigest } from "../ports/subject-digest.ts";

/** What a digest made with a KMS HMAC key starts with: the scheme's version. */
export const KMS_DIGEST = "kmac1.";

/**
 * The keyed digest of an identity number: HMAC-SHA-256 with the stage's KMS HMAC key, whose
 * material never leaves KMS (no function holds a secret). The same number gives the same digest.
 */
export function kmsSubjectDigest(kms: Pick<KMSClient, "send">, keyId: string): SubjectDigest {
  return {
    async digest(identityNumber) {
      const { Mac } = await kms.send(
        new GenerateMacCommand({
          KeyId: keyId,
          MacAlgorithm: "HMAC_SHA_256",
          Message: Buffer.from(identityNumber, "utf8"),
        }),
      );
      if (!Mac) throw new Error("KMS returned no MAC");
      return `${KMS_DIGEST}${Buffer.from(Mac).toString("base64url")}`;
    },
  };
}
