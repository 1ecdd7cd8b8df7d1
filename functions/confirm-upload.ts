/**
 * POST /v1/verifications/{verification_id}/upload-complete: primary adapter -> use case
 * `confirmUpload` -> secondary adapters (S3 head and first bytes, DynamoDB transition; for
 * `sync`, the whole document, the document reader and the authority too).
 */
import { CONFIRM_UPLOAD_FUNCTION } from "#shared/declarations/functions/confirm-upload";
import { routeHandler } from "#shared/http/route-handler";
import { confirmUpload } from "#shared/use-cases/public/confirm-upload";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { processing } from "#shared/wiring/processing";
import { requestLog } from "#shared/wiring/stores/requests";

const config = functionConfig(CONFIRM_UPLOAD_FUNCTION);
const requests = requestLog(config);
// The change of state carries the request's record into the request log, in one write.
const deps = processing(config, requests);

export const handler = routeHandler({ log, requests, clock }, async (event, caller, _context, logged) => ({
  status: 200,
  body: await confirmUpload(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
    logged: logged.answering(200),
  }),
}));
