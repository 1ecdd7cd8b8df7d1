/**
 * The local key service: KMS's wire protocol for the operations the sealer and the subject
 * digest use, Encrypt, Decrypt and GenerateMac (JSON 1.1, `POST /` with
 * `X-Amz-Target: TrentService.<Operation>`), so the same adapters and SDK client run locally.
 * Two symmetric keys, named by `LOCAL_SEALING_KEY_ID` (webhook secrets) and
 * `LOCAL_IDENTITY_KEY_ID` (identity numbers sent on create): AES-256-GCM with the encryption
 * context as additional data, so a value opens only with the context it was sealed with, as in
 * KMS. One HMAC key, named by `LOCAL_SUBJECT_KEY_ID`: HMAC-SHA-256, as a KMS `HMAC_256` key.
 * One signing key, named by `LOCAL_AUDIT_KEY_ID`: ECDSA on P-256, as a KMS `ECC_NIST_P256` key,
 * answering Sign (a raw message, `ECDSA_SHA_256`, a DER signature) and GetPublicKey (DER SPKI).
 * Errors come back as KMS sends them (HTTP 400 and `__type`).
 */
import {
  createCipheriv,
  createDecipheriv,
  createECDH,
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  randomUUID,
  sign,
} from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { KMSClient } from "@aws-sdk/client-kms";
import type { Sealer } from "#shared/ports/sealer";
import { sealerOn } from "#shared/wiring/sealer";
import { localClient, serveOnLoopback } from "./engines.ts";
import { jsonRequestBody } from "./json-body.ts";

/** The key's ARN, as the stack's output names a deployed one. */
export const LOCAL_SEALING_KEY_ID = "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-000000000001";

/** The key identity numbers sent on create are sealed with. */
export const LOCAL_IDENTITY_KEY_ID = "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-000000000003";

/** The HMAC key expected identity numbers are digested with. */
export const LOCAL_SUBJECT_KEY_ID = "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-000000000002";

/** The key the audit trail's digests are signed with. */
export const LOCAL_AUDIT_KEY_ID = "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-000000000004";

const TARGET_PREFIX = "TrentService.";
const MAX_BODY_BYTES = 64 * 1024;
/** What every ciphertext of this service starts with: its format and the key it was made with. */
const MAGIC = Buffer.from("LKMS1");

class KmsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** The encryption context as KMS binds it: every pair, in a fixed order. */
function additionalData(context: unknown): Buffer {
  const entries = Object.entries((context ?? {}) as Record<string, string>).sort(([a], [b]) => a.localeCompare(b));
  return Buffer.from(JSON.stringify(entries), "utf8");
}

async function readInput(request: IncomingMessage): Promise<Record<string, unknown>> {
  return (await jsonRequestBody(request, MAX_BODY_BYTES, (reason) =>
    reason === "too_large"
      ? new KmsError("ValidationException", "Request body too large.")
      : new KmsError("SerializationException", "Request body is not JSON."),
  )) as Record<string, unknown>;
}

/** A P-256 private key whose secret scalar is `scalar` (32 bytes). */
function p256Key(scalar: Buffer): KeyObject {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(scalar);
  const point = ecdh.getPublicKey();
  return createPrivateKey({
    key: {
      kty: "EC",
      crv: "P-256",
      d: scalar.toString("base64url"),
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
}

type Operations = Record<string, (input: Record<string, unknown>) => unknown>;

/** `Sign` and `GetPublicKey` with the audit sealer's P-256 key, the only signing key. */
function signingOperations(signingKey: KeyObject): Operations {
  const signingKeyOnly = (keyId: unknown) => {
    if (keyId !== LOCAL_AUDIT_KEY_ID) {
      throw new KmsError("InvalidKeyUsageException", `Key '${String(keyId)}' is not a signing key`);
    }
  };
  return {
    Sign(input) {
      signingKeyOnly(input.KeyId);
      if (input.SigningAlgorithm !== "ECDSA_SHA_256" || (input.MessageType ?? "RAW") !== "RAW") {
        throw new KmsError("ValidationException", "The local key signs a raw message with ECDSA_SHA_256");
      }
      const message = Buffer.from(String(input.Message ?? ""), "base64");
      if (message.length === 0 || message.length > 4096) {
        throw new KmsError("ValidationException", "Message must be 1 to 4096 bytes");
      }
      return {
        Signature: sign("sha256", message, signingKey).toString("base64"),
        KeyId: LOCAL_AUDIT_KEY_ID,
        SigningAlgorithm: "ECDSA_SHA_256",
      };
    },
    GetPublicKey(input) {
      signingKeyOnly(input.KeyId);
      return {
        PublicKey: createPublicKey(signingKey).export({ type: "spki", format: "der" }).toString("base64"),
        KeyId: LOCAL_AUDIT_KEY_ID,
        KeySpec: "ECC_NIST_P256",
        KeyUsage: "SIGN_VERIFY",
        SigningAlgorithms: ["ECDSA_SHA_256"],
      };
    },
  };
}

/** `GenerateMac` with the subject key, the only HMAC key. */
function macOperation(macKey: Buffer): Operations {
  return {
    GenerateMac(input) {
      if (input.KeyId !== LOCAL_SUBJECT_KEY_ID) {
        throw new KmsError("InvalidKeyUsageException", `Key '${String(input.KeyId)}' is not an HMAC key`);
      }
      if (input.MacAlgorithm !== "HMAC_SHA_256") {
        throw new KmsError("InvalidKeyUsageException", "The key's MAC algorithm is HMAC_SHA_256");
      }
      const message = Buffer.from(String(input.Message ?? ""), "base64");
      if (message.length === 0 || message.length > 4096) {
        throw new KmsError("ValidationException", "Message must be 1 to 4096 bytes");
      }
      return {
        Mac: createHmac("sha256", macKey).update(message).digest("base64"),
        KeyId: LOCAL_SUBJECT_KEY_ID,
        MacAlgorithm: "HMAC_SHA_256",
      };
    },
  };
}

/** `Encrypt` and `Decrypt` with the symmetric keys (AES-256-GCM, the encryption context as additional data). */
function symmetricOperations(symmetric: Map<string, Buffer>): Operations {
  /** The symmetric key `keyId` names (the sealing key when none is named, as a Decrypt may leave it to the blob). */
  const knownKey = (keyId: unknown): { id: string; key: Buffer } => {
    const id = keyId === undefined ? LOCAL_SEALING_KEY_ID : String(keyId);
    const key = symmetric.get(id);
    if (!key) throw new KmsError("NotFoundException", `Key '${id}' does not exist`);
    return { id, key };
  };
  return {
    Encrypt(input) {
      const { id, key } = knownKey(input.KeyId);
      const plaintext = Buffer.from(String(input.Plaintext ?? ""), "base64");
      if (plaintext.length === 0 || plaintext.length > 4096) {
        throw new KmsError("ValidationException", "Plaintext must be 1 to 4096 bytes");
      }
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(additionalData(input.EncryptionContext));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      const blob = Buffer.concat([MAGIC, iv, cipher.getAuthTag(), body]);
      return {
        CiphertextBlob: blob.toString("base64"),
        KeyId: id,
        EncryptionAlgorithm: "SYMMETRIC_DEFAULT",
      };
    },
    Decrypt(input) {
      const { id, key } = knownKey(input.KeyId);
      const blob = Buffer.from(String(input.CiphertextBlob ?? ""), "base64");
      if (blob.length < MAGIC.length + 28 || !blob.subarray(0, MAGIC.length).equals(MAGIC)) {
        throw new KmsError("InvalidCiphertextException", "The ciphertext is not one this key made");
      }
      const iv = blob.subarray(MAGIC.length, MAGIC.length + 12);
      const tag = blob.subarray(MAGIC.length + 12, MAGIC.length + 28);
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAAD(additionalData(input.EncryptionContext));
      decipher.setAuthTag(tag);
      try {
        const plaintext = Buffer.concat([decipher.update(blob.subarray(MAGIC.length + 28)), decipher.final()]);
        return {
          Plaintext: plaintext.toString("base64"),
          KeyId: id,
          EncryptionAlgorithm: "SYMMETRIC_DEFAULT",
        };
      } catch {
        // A wrong encryption context and a tampered blob read alike, as in KMS.
        throw new KmsError("InvalidCiphertextException", "The ciphertext or its encryption context does not match");
      }
    },
  };
}

/** KMS's JSON protocol over `operations`: one answer per request, a refusal as KMS shapes it. */
function kmsServer(operations: Operations) {
  return createServer(async (request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, {
        "content-type": "application/x-amz-json-1.1",
        "x-amzn-requestid": randomUUID(),
        ...headers,
      });
      response.end(JSON.stringify(body));
    };
    try {
      const target = String(request.headers["x-amz-target"] ?? "");
      const operation = target.startsWith(TARGET_PREFIX) ? operations[target.slice(TARGET_PREFIX.length)] : undefined;
      if (request.method !== "POST" || !operation) {
        throw new KmsError("UnknownOperationException", `Unknown operation ${target}`);
      }
      send(200, operation(await readInput(request)));
    } catch (error) {
      const known = error instanceof KmsError ? error : new KmsError("KMSInternalException", "Internal error");
      send(400, { __type: known.type, message: known.message }, { "x-amzn-errortype": known.type });
    }
  });
}

/** The local key service over `keyMaterial` (the local runtime's own sealing material). */
export async function startKms(options: {
  port: number;
  keyMaterial: string;
}): Promise<{ url: string; stop(): Promise<void> }> {
  const derived = (info: string) => Buffer.from(hkdfSync("sha256", options.keyMaterial, "", info, 32));
  const symmetric = new Map([
    [LOCAL_SEALING_KEY_ID, derived("verification-api local kms")],
    [LOCAL_IDENTITY_KEY_ID, derived("verification-api local kms identity")],
  ]);
  const operations: Operations = {
    ...signingOperations(p256Key(derived("verification-api local kms audit signing"))),
    ...macOperation(derived("verification-api local kms hmac")),
    ...symmetricOperations(symmetric),
  };
  return serveOnLoopback(kmsServer(operations), options.port);
}

/**
 * The sealer the local runtime's own code uses (the dev app, tests): the functions' KMS sealer
 * against the local key service, opening values sealed before with the local key material.
 */
export function localSealer(endpoint: string, keyMaterial: string): Sealer {
  return sealerOn(
    new KMSClient({ ...localClient(endpoint), maxAttempts: 2 }),
    LOCAL_SEALING_KEY_ID,
    async () => keyMaterial,
  );
}
