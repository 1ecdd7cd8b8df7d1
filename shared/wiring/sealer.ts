import type { KMSClient } from "@aws-sdk/client-kms";
import { KMS_SEALED, kmsSealer } from "../adapters/kms-sealer.ts";
import { retiredSealer } from "../adapters/retired-sealer.ts";
import { SecretBox } from "../adapters/secret-box.ts";
import type { Sealer } from "../ports/sealer.ts";
import { kmsClient } from "./clients.ts";
import type { FunctionConfig } from "./config.ts";
import { settingOrSecret } from "./secrets.ts";

/**
 * Seals with the KMS key `keyId` through `kms`, the app as encryption context; with
 * `retiredKey`, the material of the key that sealed before KMS (loaded on first use), it also
 * opens what that key sealed, until `ops webhooks reseal` has moved it.
 */
export function sealerOn(kms: KMSClient, keyId: string, retiredKey?: () => Promise<string>): Sealer {
  return kmsSealer(kms, keyId, retiredKey && retiredSealer(retiredKey));
}

/** Whether `sealed` was sealed with the KMS key, not the retired one. */
export const sealedWithCurrentKey = (sealed: string): boolean => sealed.startsWith(KMS_SEALED);

/** New material for a retired key: what the local runtime keeps beside its data. */
export const newKeyMaterial = (): string => SecretBox.generateKey();

/**
 * A function's sealer of identity numbers sent with a verification by its keys: the KMS key
 * `IDENTITY_KEY_ID` names, apart from the webhook secrets' key.
 */
export function identitySealer(config: FunctionConfig): Sealer {
  return sealerOn(kmsClient(), config.setting("IDENTITY_KEY_ID"));
}

const sealers = new Map<string, Sealer>();

/**
 * A function's sealer: the KMS key `SEALING_KEY_ID` names. A function that opens secrets and
 * declares the retired key (`SECRETS_KEY` locally, `SECRETS_KEY_ARN` in AWS) also opens values
 * sealed before, until they are resealed.
 */
export function processSealer(config: FunctionConfig): Sealer {
  const known = sealers.get(config.name);
  if (known) return known;
  const retired = config.declares("SECRETS_KEY_ARN") ? settingOrSecret("SECRETS_KEY", "SECRETS_KEY_ARN") : undefined;
  const sealer = sealerOn(kmsClient(), config.setting("SEALING_KEY_ID"), retired);
  sealers.set(config.name, sealer);
  return sealer;
}
