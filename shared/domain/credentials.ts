import { createHash, randomBytes } from "node:crypto";
import type { Environment } from "./environments.ts";

/** API keys: `vk_<environment>_` + 32 random bytes (base64url). Only the SHA-256 is stored. */
export const API_KEY_PATTERN = /^vk_(sandbox|production)_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(environment: Environment): string {
  return `vk_${environment}_${randomBytes(32).toString("base64url")}`;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** What operators see of a key: its environment prefix and first 8 random characters. */
export function displayPrefix(key: string): string {
  const environmentPrefix = key.startsWith("vk_production_") ? "vk_production_" : "vk_sandbox_";
  return key.slice(0, environmentPrefix.length + 8);
}

/** The environment a key's prefix names, if it is well formed. */
export function keyEnvironment(key: string): Environment | undefined {
  const match = API_KEY_PATTERN.exec(key);
  return match ? (match[1] as Environment) : undefined;
}

/** Webhook signing secrets in the Standard Webhooks form: `whsec_` + base64 of 32 bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
