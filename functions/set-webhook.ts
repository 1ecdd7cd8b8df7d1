/** PUT /portal/v1/apps/{app_id}/webhook: primary adapter -> use case `setMemberWebhook` (the ops command's destination rule) -> the apps table, the audit trail. */
import { SET_WEBHOOK_FUNCTION } from "#shared/declarations/functions/set-webhook";
import { webhookBodySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { readJsonBody } from "#shared/http/requests";
import { setMemberWebhook } from "#shared/use-cases/portal/apps";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(SET_WEBHOOK_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { apps: appStore(config, audit), audit, clock, destinations: config.destinations() };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await setMemberWebhook(
    deps,
    caller,
    event.pathParameters?.app_id ?? "",
    readJsonBody(event, webhookBodySchema).url,
  ),
}));
