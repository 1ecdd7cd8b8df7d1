import type { Sealer } from "../ports/sealer.ts";
import { SecretBox } from "./secret-box.ts";

/**
 * The retired sealer: the key material that sealed webhook secrets before KMS, kept only to open
 * what it sealed until it is resealed. Its material is loaded on first use (a Secrets Manager read
 * in AWS), once:
 * a function or command that never seals or opens a secret never reads it. A load that fails
 * is not kept: the next use tries again, so one throttled read does not break a warm function.
 */
export function retiredSealer(loadKeyMaterial: () => Promise<string>): Sealer {
  let box: Promise<SecretBox> | undefined;
  const opened = () => {
    box ??= loadKeyMaterial()
      .then((material) => new SecretBox(material))
      .catch((error: unknown) => {
        box = undefined;
        throw error;
      });
    return box;
  };
  return {
    seal: async (plain) => (await opened()).seal(plain),
    open: async (sealed) => (await opened()).open(sealed),
  };
}
