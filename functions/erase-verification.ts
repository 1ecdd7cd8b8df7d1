/**
 * DELETE /v1/verifications/{verification_id}: primary adapter -> use case `eraseVerification`
 * -> secondary adapters (the document objects deleted, then one conditional DynamoDB write).
 */
import { ERASE_VERIFICATION_FUNCTION } from "#shared/declarations/functions/erase-verification";
import { routeHandler } from "#shared/http/route-handler";
import { eraseVerification } from "#shared/use-cases/public/erase-verification";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { documentStore } from "#shared/wiring/stores/documents";
import { requestLog } from "#shared/wiring/stores/requests";
import { verificationStore } from "#shared/wiring/stores/verifications";

const config = functionConfig(ERASE_VERIFICATION_FUNCTION);
const deps = { verifications: verificationStore(config), documents: documentStore(config), clock };

export const handler = routeHandler({ log, requests: requestLog(config), clock }, async (event, caller) => ({
  status: 200,
  body: await eraseVerification(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
  }),
}));
