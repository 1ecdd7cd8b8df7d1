import { describe, expect, it } from "vitest";
import { retiredSealer } from "#shared/adapters/retired-sealer";
import { SecretBox } from "#shared/adapters/secret-box";
import {
  API_KEY_PATTERN,
  displayPrefix,
  generateApiKey,
  generateWebhookSecret,
  hashApiKey,
  keyEnvironment,
} from "#shared/domain/credentials";

describe("API keys", () => {
  it("carry the environment and 256 random bits, and differ every time", () => {
    const key = generateApiKey("sandbox");
    expect(key).toMatch(API_KEY_PATTERN);
    expect(Buffer.from(key.slice("vk_sandbox_".length), "base64url")).toHaveLength(32);
    expect(generateApiKey("sandbox")).not.toBe(key);
    expect(keyEnvironment(generateApiKey("production"))).toBe("production");
    expect(keyEnvironment("vk_staging_abc")).toBeUndefined();
  });

  it("are stored as a SHA-256 hash and shown to operators as a prefix", () => {
    const key = generateApiKey("production");
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(14));
    expect(displayPrefix(key)).toBe(key.slice(0, "vk_production_".length + 8));
  });
});

describe("webhook secrets", () => {
  it("take the Standard Webhooks form", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
  });

  it("are sealed so that the table never holds them in plain text, and open again", () => {
    const box = new SecretBox(SecretBox.generateKey());
    const secret = generateWebhookSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
  });

  it("refuse to open when tampered with or under another key", () => {
    const box = new SecretBox(SecretBox.generateKey());
    const sealed = box.seal("whsec_x");
    // The body's second-to-last character carries six whole bits: changing it always changes a byte.
    const at = sealed.length - 2;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`;
    expect(tampered).not.toBe(sealed);
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox(SecretBox.generateKey()).open(sealed)).toThrow();
  });
});

describe("retiredSealer", () => {
  it("loads the key once, and tries again after a load that failed instead of keeping the failure", async () => {
    const material = SecretBox.generateKey();
    let loads = 0;
    const sealer = retiredSealer(async () => {
      loads += 1;
      if (loads === 1) throw new Error("ThrottlingException");
      return material;
    });

    const context = { appId: "app_01" };
    await expect(sealer.seal("whsec_x", context)).rejects.toThrow("ThrottlingException");
    const sealed = await sealer.seal("whsec_x", context);
    expect(await sealer.open(sealed, context)).toBe("whsec_x");
    expect(loads).toBe(2);
  });
});
