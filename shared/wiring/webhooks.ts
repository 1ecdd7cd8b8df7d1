import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { sealerWithKey } from "../adapters/sealer.ts";
import { secretString } from "../adapters/sealing-key.ts";
import { fetchWebhookSender } from "../adapters/webhook-sender.ts";
import { readSettings } from "../declarations/settings.ts";
import type { Sealer } from "../ports/sealer.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { appStore, eventStore } from "./stores.ts";

let sealer: Sealer | undefined;

/**
 * The process's sealer: key material from `SECRETS_KEY` (the local runtime) or from the
 * Secrets Manager secret `SECRETS_KEY_ARN` names (AWS), read at first use.
 */
function processSealer(): Sealer {
  sealer ??= sealerWithKey(async () => {
    const { SECRETS_KEY, SECRETS_KEY_ARN } = readSettings(["SECRETS_KEY", "SECRETS_KEY_ARN"]);
    if (SECRETS_KEY) return SECRETS_KEY;
    if (!SECRETS_KEY_ARN) throw new Error("Invalid configuration: set SECRETS_KEY or SECRETS_KEY_ARN");
    const material = await secretString(new SecretsManagerClient({}), SECRETS_KEY_ARN);
    if (!material) throw new Error("The secrets key secret has no string value");
    return material;
  });
  return sealer;
}

/** What recording and delivering webhook events needs. */
export function webhooks(config: FunctionConfig) {
  return {
    events: eventStore(config),
    apps: appStore(config),
    sealer: processSealer(),
    sender: fetchWebhookSender,
    clock,
    log,
  };
}
