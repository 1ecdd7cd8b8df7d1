/** PATCH /portal/v1/apps/{app_id}/keys/{key_id}: primary adapter -> use case `renameMemberKey` (the ops command's `renameKey`) -> the apps table, the audit trail. */
import { RENAME_KEY_FUNCTION } from "#shared/declarations/functions/rename-key";
import { renameKeyBodySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { readJsonBody } from "#shared/http/requests";
import { renameMemberKey } from "#shared/use-cases/portal/apps";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(RENAME_KEY_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { apps: appStore(config, audit), audit, clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await renameMemberKey(
    deps,
    caller,
    event.pathParameters?.app_id ?? "",
    event.pathParameters?.key_id ?? "",
    readJsonBody(event, renameKeyBodySchema),
  ),
}));
