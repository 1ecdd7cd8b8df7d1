/**
 * POST /portal/v1/events/{event_id}/send: primary adapter -> use case `replayMemberEvent` (the
 * replay route's: sending an event now, delivered before or never, is a new round of attempts due
 * now) -> the events table, the audit trail.
 */
import { SEND_EVENT_FUNCTION } from "#shared/declarations/functions/send-event";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { replayMemberEvent } from "#shared/use-cases/portal/webhooks";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { replaying } from "#shared/wiring/replaying";

const deps = replaying(functionConfig(SEND_EVENT_FUNCTION));

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 202,
  body: await replayMemberEvent(deps, caller, event.pathParameters?.event_id ?? ""),
}));
