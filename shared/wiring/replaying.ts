import { clock, type FunctionConfig } from "./config.ts";
import { appStore } from "./stores/apps.ts";
import { auditTrail } from "./stores/audit.ts";
import { eventStore, sendingBudget } from "./stores/events.ts";

/**
 * What sending one of an organisation's events again by hand needs (replay, and send now): its
 * stores, each change written with its audit record, and the app's sends by hand.
 */
export function replaying(config: FunctionConfig) {
  const audit = auditTrail(config);
  return { apps: appStore(config, audit), events: eventStore(config, audit), sending: sendingBudget(config), clock };
}
