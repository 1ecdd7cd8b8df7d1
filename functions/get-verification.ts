/**
 * GET /v1/verifications/{verification_id}: primary adapter -> use case `getVerification`
 * -> secondary adapters (DynamoDB read, S3 presigner).
 */
import { routeHandler } from "#shared/http/responses";
import { getVerification } from "#shared/use-cases/get-verification";
import { wire } from "#shared/wiring";

const wired = wire("get-verification");
const deps = { verifications: wired.verifications(), documents: wired.documents(), clock: wired.clock };

export const handler = routeHandler(wired.log, async (event, caller) => ({
  status: 200,
  body: await getVerification(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
  }),
}));
