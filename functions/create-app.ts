/**
 * POST /portal/v1/apps: primary adapter -> use case `createMemberApp` (the ops command's
 * `createApp`, owned by the caller's organisation) -> secondary adapters (the apps table, the
 * sealing key, the stage's usage plan, the audit trail).
 */
import { CREATE_APP_FUNCTION } from "#shared/declarations/functions/create-app";
import { newAppBodySchema } from "#shared/domain/portal";
import { portalRouteHandler } from "#shared/http/portal-route-handler";
import { readJsonBody } from "#shared/http/requests";
import { createMemberApp } from "#shared/use-cases/portal/apps";
import { appLimits } from "#shared/wiring/app-limits";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { processSealer } from "#shared/wiring/sealer";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";

const config = functionConfig(CREATE_APP_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = {
  apps: appStore(config, audit),
  sealer: processSealer(config),
  limits: appLimits(config),
  audit,
  clock,
  environment: config.environment(),
  destinations: config.destinations(),
};

export const handler = portalRouteHandler(log, async (event, caller) => ({
  status: 201,
  body: await createMemberApp(deps, caller, readJsonBody(event, newAppBodySchema)),
  headers: { "Cache-Control": "no-store" },
}));
