/** POST /portal/v1/events/{event_id}/replay: primary adapter -> use case `replayMemberEvent` (the ops command's `replayEvent`) -> the events table, the audit trail. */
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { replayMemberEvent } from "#shared/use-cases/portal/webhooks";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { eventStore } from "#shared/wiring/stores/events";

const config = functionConfig("replay-event");
const deps = { apps: appStore(config), events: eventStore(config), audit: auditTrail(config), clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 202,
  body: await replayMemberEvent(deps, caller, event.pathParameters?.event_id ?? ""),
}));
