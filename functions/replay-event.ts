/** POST /portal/v1/events/{event_id}/replay: primary adapter -> use case `replayMemberEvent` (the ops command's `replayEvent`) -> the events table, the audit trail. */
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { replayMemberEvent } from "#shared/use-cases/portal/webhooks";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { eventStore, sendingBudget } from "#shared/wiring/stores/events";

const config = functionConfig("replay-event");
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = {
  apps: appStore(config, audit),
  events: eventStore(config, audit),
  sending: sendingBudget(config),
  audit,
  clock,
};

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 202,
  body: await replayMemberEvent(deps, caller, event.pathParameters?.event_id ?? ""),
}));
