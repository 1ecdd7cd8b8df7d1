/** DELETE /portal/v1/apps/{app_id}/keys/{key_id}: primary adapter -> use case `revokeMemberKey` (the ops command's `revokeKeys`) -> the apps table, the audit trail. */
import { REVOKE_KEY_FUNCTION } from "#shared/declarations/functions/revoke-key";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { revokeMemberKey } from "#shared/use-cases/portal/apps";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(REVOKE_KEY_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = { apps: appStore(config, audit), audit, clock };

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 200,
  body: await revokeMemberKey(deps, caller, event.pathParameters?.app_id ?? "", event.pathParameters?.key_id ?? ""),
}));
