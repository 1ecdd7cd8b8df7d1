import { clock, type FunctionConfig } from "./config.ts";
import { log } from "./log.ts";
import { deliveryQueue } from "./queues.ts";
import { appStore } from "./stores/apps.ts";
import { auditTrail } from "./stores/audit.ts";
import { eventStore, sendingBudget } from "./stores/events.ts";

/**
 * What sending one of an organisation's events again by hand needs (replay, and send now): its
 * stores, each change written with its audit record, the app's sends by hand, and the delivery
 * queue that makes the new round's first attempt at once.
 */
export function replaying(config: FunctionConfig) {
  const audit = auditTrail(config);
  return {
    apps: appStore(config, audit),
    events: eventStore(config, audit),
    sending: sendingBudget(config),
    queue: deliveryQueue(config),
    log,
    clock,
  };
}
