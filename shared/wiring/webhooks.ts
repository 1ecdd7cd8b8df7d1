import { webhookSender } from "../adapters/webhook-sender.ts";
import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { processSealer } from "./sealer.ts";
import { appStore } from "./stores/apps.ts";
import { eventStore } from "./stores/events.ts";

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
