import { sealerWithKey } from "../adapters/sealer.ts";
import { webhookSender } from "../adapters/webhook-sender.ts";
import type { Sealer } from "../ports/sealer.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { settingOrSecret } from "./secrets.ts";
import { appStore, eventStore } from "./stores.ts";

let sealer: Sealer | undefined;

/**
 * The process's sealer: key material from `SECRETS_KEY` (the local runtime) or from the
 * Secrets Manager secret `SECRETS_KEY_ARN` names (AWS), read at first use.
 */
export function processSealer(): Sealer {
  sealer ??= sealerWithKey(settingOrSecret("SECRETS_KEY", "SECRETS_KEY_ARN"));
  return sealer;
}

/** What recording and delivering webhook events needs. */
export function webhooks(config: FunctionConfig) {
  return {
    events: eventStore(config),
    apps: appStore(config),
    sealer: processSealer(),
    sender: webhookSender(config.destinations()),
    clock,
    log,
  };
}
