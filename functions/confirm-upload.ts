/**
 * POST /v1/verifications/{verification_id}/upload-complete: primary adapter -> use case
 * `confirmUpload` -> secondary adapters (S3 head and first bytes, DynamoDB transition; for
 * `sync`, the whole document and the authority adapter too).
 */
import { authorityFor } from "#shared/authority";
import { documentClient, s3Client } from "#shared/clients";
import { readConfig } from "#shared/config";
import { routeHandler } from "#shared/http";
import { FUNCTIONS } from "#shared/routes";
import { UploadStore } from "#shared/upload-store";
import { confirmUpload } from "#shared/use-cases/confirm-upload";
import { VerificationStore } from "#shared/verification-store";

const config = readConfig(FUNCTIONS["confirm-upload"].settings);
const deps = {
  verifications: new VerificationStore(documentClient(), config.VERIFICATIONS_TABLE),
  uploads: new UploadStore(s3Client(), config.UPLOADS_BUCKET),
  authority: authorityFor(config.ENVIRONMENT),
};

export const handler = routeHandler(async (event, caller) => ({
  status: 200,
  body: await confirmUpload(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
  }),
}));
