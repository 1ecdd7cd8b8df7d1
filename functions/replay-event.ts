/** POST /portal/v1/events/{event_id}/replay: primary adapter -> use case `replayMemberEvent` (the ops command's `replayEvent`) -> the events table, the audit trail. */
import { REPLAY_EVENT_FUNCTION } from "#shared/declarations/functions/replay-event";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { replayMemberEvent } from "#shared/use-cases/portal/webhooks";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { replaying } from "#shared/wiring/replaying";

const deps = replaying(functionConfig(REPLAY_EVENT_FUNCTION));

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 202,
  body: await replayMemberEvent(deps, caller, event.pathParameters?.event_id ?? ""),
}));
