/**
 * GET /v1/verifications/{verification_id}: primary adapter -> use case `getVerification`
 * -> secondary adapters (one DynamoDB read, S3 presigner).
 */
import { GET_VERIFICATION_FUNCTION } from "#shared/declarations/functions/get-verification";
import { routeHandler } from "#shared/http/route-handler";
import { getVerification } from "#shared/use-cases/public/get-verification";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { documentStore } from "#shared/wiring/stores/documents";
import { requestLog } from "#shared/wiring/stores/requests";
import { verificationReader } from "#shared/wiring/stores/verification-reader";

const config = functionConfig(GET_VERIFICATION_FUNCTION);
const deps = { verifications: verificationReader(config), documents: documentStore(config), clock };

export const handler = routeHandler({ log, requests: requestLog(config), clock }, async (event, caller) => ({
  status: 200,
  body: await getVerification(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
  }),
}));
