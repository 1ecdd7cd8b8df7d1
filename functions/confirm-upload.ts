/**
 * POST /v1/verifications/{verification_id}/upload-complete: primary adapter -> use case
 * `confirmUpload` -> secondary adapters (S3 head and first bytes, DynamoDB transition; for
 * `sync`, the whole document, the document reader and the authority too).
 */
import { routeHandler } from "#shared/http/responses";
import { confirmUpload } from "#shared/use-cases/confirm-upload";
import { wire } from "#shared/wiring";

const wired = wire("confirm-upload");
const deps = wired.processing();

export const handler = routeHandler(wired.log, async (event, caller) => ({
  status: 200,
  body: await confirmUpload(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
  }),
}));
