/** POST /portal/v1/apps/{app_id}/webhook/secret: primary adapter -> use case `rotateMemberSecret` (the ops command's `rotateWebhookSecret`) -> the apps table, the sealing key, the audit trail. */
import { ROTATE_WEBHOOK_SECRET_FUNCTION } from "#shared/declarations/functions/rotate-webhook-secret";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { rotateMemberSecret } from "#shared/use-cases/portal/apps";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { processSealer } from "#shared/wiring/sealer";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(ROTATE_WEBHOOK_SECRET_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { apps: appStore(config, audit), sealer: processSealer(config), audit, clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 201,
  body: await rotateMemberSecret(deps, caller, event.pathParameters?.app_id ?? ""),
  headers: { "Cache-Control": "no-store" },
}));
