/**
 * GET /v1/verifications/{verification_id}: primary adapter -> use case `getVerification`
 * -> secondary adapters (DynamoDB read, S3 presigner).
 */
import { documentClient, s3Client } from "#shared/clients";
import { readConfig } from "#shared/config";
import { routeHandler } from "#shared/http";
import { FUNCTIONS } from "#shared/routes";
import { UploadStore } from "#shared/upload-store";
import { getVerification } from "#shared/use-cases/get-verification";
import { VerificationStore } from "#shared/verification-store";

const config = readConfig(FUNCTIONS["get-verification"].settings);
const deps = {
  verifications: new VerificationStore(documentClient(), config.VERIFICATIONS_TABLE),
  uploads: new UploadStore(s3Client(), config.UPLOADS_BUCKET),
};

export const handler = routeHandler(async (event, caller) => ({
  status: 200,
  body: await getVerification(deps, {
    appId: caller.appId,
    verificationId: event.pathParameters?.verification_id ?? "",
  }),
}));
