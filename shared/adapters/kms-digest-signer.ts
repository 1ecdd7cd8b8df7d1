import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { GetPublicKeyCommand, type KMSClient, SignCommand } from "@aws-sdk/client-kms";
import type { DigestSigner, DigestVerifier } from "../ports/audit-trail.ts";

/**
 * The audit trail's sealing key: a KMS `ECC_NIST_P256` key whose private half never leaves KMS.
 * What is signed is a digest's hash as text (64 characters, under KMS's 4 KB for a raw message),
 * with `ECDSA_SHA_256`; the signature is DER, as KMS returns it.
 */
const ALGORITHM = "ECDSA_SHA_256";

/** Signs with `kms:Sign`, which only the sealer's role is granted. */
export function kmsDigestSigner(kms: Pick<KMSClient, "send">, keyId: string): DigestSigner {
  return {
    async sign(hash) {
      const { Signature } = await kms.send(
        new SignCommand({
          KeyId: keyId,
          Message: Buffer.from(hash, "utf8"),
          MessageType: "RAW",
          SigningAlgorithm: ALGORITHM,
        }),
      );
      if (!Signature) throw new Error("KMS returned no signature");
      return Buffer.from(Signature).toString("base64");
    },
  };
}

/**
 * Checks signatures with the key's public half, fetched once (`kms:GetPublicKey`) and used in
 * process, so a check of many digests asks KMS once.
 */
export function kmsDigestVerifier(kms: Pick<KMSClient, "send">, keyId: string): DigestVerifier {
  let publicKey: Promise<KeyObject> | undefined;
  const load = async () => {
    const { PublicKey } = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
    if (!PublicKey) throw new Error("KMS returned no public key");
    return createPublicKey({ key: Buffer.from(PublicKey), format: "der", type: "spki" });
  };
  return {
    async verify(hash, signature) {
      publicKey ??= load().catch((error: unknown) => {
        publicKey = undefined;
        throw error;
      });
      return verify("sha256", Buffer.from(hash, "utf8"), await publicKey, Buffer.from(signature, "base64"));
    },
  };
}
