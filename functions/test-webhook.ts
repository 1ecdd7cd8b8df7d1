/**
 * POST /portal/v1/apps/{app_id}/webhook/test: primary adapter -> use case `sendTestEvent` ->
 * secondary adapters (the events table with the audit trail in one write, the app's destination over HTTPS).
 */
import { TEST_WEBHOOK_FUNCTION } from "#shared/declarations/functions/test-webhook";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { sendTestEvent } from "#shared/use-cases/portal/webhooks";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail } from "#shared/wiring/stores/audit";
import { eventStore, sendingBudget } from "#shared/wiring/stores/events";
import { webhooks } from "#shared/wiring/webhooks";

const config = functionConfig(TEST_WEBHOOK_FUNCTION);
// The test event and the record of who sent it are one write: the events store links the record.
const deps = { ...webhooks(config), events: eventStore(config, auditTrail(config)), sending: sendingBudget(config) };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await sendTestEvent(deps, caller, event.pathParameters?.app_id ?? ""),
}));
