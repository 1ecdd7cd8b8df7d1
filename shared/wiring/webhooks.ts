import { kmsSealer } from "../adapters/kms-sealer.ts";
import { retiredSealer } from "../adapters/retired-sealer.ts";
import { webhookSender } from "../adapters/webhook-sender.ts";
import { FUNCTIONS } from "../declarations/functions.ts";
import type { Sealer } from "../ports/sealer.ts";
import { kmsClient } from "./clients.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { settingOrSecret } from "./secrets.ts";
import { appStore, eventStore } from "./stores.ts";

const sealers = new Map<string, Sealer>();

/**
 * A function's sealer: the KMS key `SEALING_KEY_ID` names, with the app as encryption
 * context. A function that opens secrets and declares the retired key (`SECRETS_KEY` locally,
 * `SECRETS_KEY_ARN` in AWS) also opens values sealed before, until they are resealed.
 */
export function processSealer(config: FunctionConfig): Sealer {
  const known = sealers.get(config.name);
  if (known) return known;
  const declared: readonly string[] = FUNCTIONS[config.name].settings;
  const retired = declared.includes("SECRETS_KEY_ARN")
    ? retiredSealer(settingOrSecret("SECRETS_KEY", "SECRETS_KEY_ARN"))
    : undefined;
  const sealer = kmsSealer(kmsClient(), config.setting("SEALING_KEY_ID"), retired);
  sealers.set(config.name, sealer);
  return sealer;
}

/** What recording and delivering webhook events needs. */
export function webhooks(config: FunctionConfig) {
  return {
    events: eventStore(config),
    apps: appStore(config),
    sealer: processSealer(config),
    sender: webhookSender(config.destinations()),
    clock,
    log,
  };
}
