/**
 * GET /backoffice and GET /backoffice/assets/{file}: primary adapter for the review console's
 * files, built by web/build.ts into WEB_ASSETS and read once at cold start. No authorizer: the
 * page holds no data; everything it shows comes through the API with the staff member's token.
 */
import { readSettings } from "#shared/declarations/settings";
import { pageHandler, regional } from "#shared/http/web-assets";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";

const config = functionConfig("backoffice-console");
const { S3_ENDPOINT, IDENTITY_ENDPOINT } = readSettings(["S3_ENDPOINT", "IDENTITY_ENDPOINT"]);

export const handler = pageHandler(log, "backoffice", config.setting("WEB_ASSETS"), {
  identityEndpoint: IDENTITY_ENDPOINT,
  clientId: config.setting("STAFF_CLIENT_ID"),
  // Presigned links name the bucket as a virtual host in AWS, the engine's address locally.
  documentsOrigin:
    S3_ENDPOINT ?? regional((region) => `https://${config.setting("UPLOADS_BUCKET")}.s3.${region}.amazonaws.com`),
});
