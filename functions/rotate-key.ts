/** POST /portal/v1/apps/{app_id}/keys: primary adapter -> use case `rotateMemberKey` (the ops command's `rotateKey`) -> the apps table, the audit trail. */
import { ROTATE_KEY_FUNCTION } from "#shared/declarations/functions/rotate-key";
import { rotateKeyBodySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { readJsonBody } from "#shared/http/requests";
import { rotateMemberKey } from "#shared/use-cases/portal/apps";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(ROTATE_KEY_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { apps: appStore(config, audit), audit, clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 201,
  body: await rotateMemberKey(
    deps,
    caller,
    event.pathParameters?.app_id ?? "",
    readJsonBody(event, rotateKeyBodySchema, { emptyIs: {} }),
  ),
  headers: { "Cache-Control": "no-store" },
}));
