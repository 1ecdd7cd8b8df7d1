/**
 * POST /v1/verifications/{verification_id}/upload-complete: primary adapter -> use case
 * `confirmUpload` -> secondary adapters (S3 head and first bytes, DynamoDB transition; for
 * `sync`, the whole document, the document reader and the authority too).
 */
import { routeHandler } from "#shared/http/route-handler";
import { confirmUpload } from "#shared/use-cases/public/confirm-upload";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { processing } from "#shared/wiring/processing";

const deps = processing(functionConfig("confirm-upload"));

export const handler = routeHandler(log, async (event, caller) => ({
  status: 200,
  body: await confirmUpload(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
  }),
}));
