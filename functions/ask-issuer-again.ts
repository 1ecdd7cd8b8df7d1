/**
 * POST /backoffice/v1/reviews/{verification_id}/issuer-lookup: primary adapter -> use case
 * `askIssuerAgain` -> secondary adapters (the verifications table with the audit trail, the
 * issuer queue, whose reader asks and runs the checks on the answer).
 */
import { ASK_ISSUER_AGAIN_FUNCTION } from "#shared/declarations/functions/ask-issuer-again";
import { staffRouteHandler } from "#shared/http/staff-route-handler";
import { askIssuerAgain } from "#shared/use-cases/review/ask-again";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { issuerQueue } from "#shared/wiring/queues";
import { appStore } from "#shared/wiring/stores/apps";
import { auditTrail } from "#shared/wiring/stores/audit";
import { documentStore } from "#shared/wiring/stores/documents";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(ASK_ISSUER_AGAIN_FUNCTION);
// Every change its stores make is written with its audit record.
const audit = auditTrail(config);
const deps = {
  verifications: verificationStore(config, audit),
  queue: issuerQueue(config),
  documents: documentStore(config),
  apps: appStore(config),
  clock,
};

export const handler = staffRouteHandler(log, async (event, staff) => ({
  status: 202,
  body: await askIssuerAgain(deps, staff, event.pathParameters?.verification_id ?? ""),
}));
