import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Fewest characters of key material a SecretBox takes. */
export const MIN_KEY_MATERIAL = 32;

/**
 * Seals secrets that must be read back (webhook signing secrets) with AES-256-GCM, so no
 * table holds them in plain text. The key itself lives outside the tables.
 */
export class SecretBox {
  private readonly key: Buffer;

  /**
   * `keyMaterial`: at least 32 characters of high-entropy text (a generated key, or a secret
   * that Secrets Manager generated); the AES key is derived from it with HKDF-SHA256.
   */
  constructor(keyMaterial: string) {
    if (keyMaterial.length < MIN_KEY_MATERIAL)
      throw new Error(`SecretBox needs at least ${MIN_KEY_MATERIAL} characters of key material`);
    this.key = Buffer.from(hkdfSync("sha256", keyMaterial, "", "verification-api sealed secrets v1", 32));
  }

  static generateKey(): string {
    return randomBytes(32).toString("base64");
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
      .join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  }
}
