import { DecryptCommand, EncryptCommand, type KMSClient } from "@aws-sdk/client-kms";
import type { SealContext, Sealer } from "../ports/sealer.ts";

/**
 * What a value sealed with KMS starts with: the scheme's version. The ciphertext itself names
 * the key and the key's version, so values sealed before a key rotation still open.
 */
export const KMS_SEALED = "kms1.";

/** Sealed before KMS, with the Secrets Manager key material (`SecretBox`). */
export const RETIRED_SEALED = "v1.";

/**
 * The encryption context of an app's secrets, and of a verification's identity number: KMS
 * opens a value only with the same one, and the key's policy tells the two uses apart by it.
 */
function encryptionContext(context: SealContext): Record<string, string> {
  return {
    app_id: context.appId,
    ...(context.verificationId === undefined ? {} : { verification_id: context.verificationId }),
  };
}

/**
 * Seals with a KMS key, the app id as encryption context: whoever may only encrypt (operators,
 * the portal's create and rotate) cannot open, and one app's sealed secret does not open as
 * another's. `retired` opens values sealed before, until `ops webhooks reseal` has moved them.
 */
export function kmsSealer(kms: Pick<KMSClient, "send">, keyId: string, retired?: Pick<Sealer, "open">): Sealer {
  return {
    async seal(plain, context) {
      const { CiphertextBlob } = await kms.send(
        new EncryptCommand({
          KeyId: keyId,
          Plaintext: Buffer.from(plain, "utf8"),
          EncryptionContext: encryptionContext(context),
        }),
      );
      if (!CiphertextBlob) throw new Error("KMS returned no ciphertext");
      return `${KMS_SEALED}${Buffer.from(CiphertextBlob).toString("base64url")}`;
    },
    async open(sealed, context) {
      if (sealed.startsWith(RETIRED_SEALED)) {
        if (!retired) throw new Error("The value was sealed with the retired key, which this function cannot read");
        return retired.open(sealed, context);
      }
      if (!sealed.startsWith(KMS_SEALED)) throw new Error("Not a sealed secret");
      const { Plaintext } = await kms.send(
        new DecryptCommand({
          KeyId: keyId,
          CiphertextBlob: Buffer.from(sealed.slice(KMS_SEALED.length), "base64url"),
          EncryptionContext: encryptionContext(context),
        }),
      );
      if (!Plaintext) throw new Error("KMS returned no plaintext");
      return Buffer.from(Plaintext).toString("utf8");
    },
  };
}
