/**
 * POST /portal/v1/apps/{app_id}/webhook/test: primary adapter -> use case `sendTestEvent` ->
 * secondary adapters (the events table, the app's destination over HTTPS, the audit trail).
 */
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { sendTestEvent } from "#shared/use-cases/portal/webhooks";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { auditTrail } from "#shared/wiring/stores/audit";
import { webhooks } from "#shared/wiring/webhooks";

const config = functionConfig("test-webhook");
const deps = { ...webhooks(config), audit: auditTrail(config) };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await sendTestEvent(deps, caller, event.pathParameters?.app_id ?? ""),
}));
