/**
 * GET /backoffice and GET /backoffice/assets/{file}: primary adapter for the review console's
 * files, built by web/build.ts into WEB_ASSETS and read once at cold start. No authorizer: the
 * page holds no data; everything it shows comes through the API with the staff member's token.
 */
import { BACKOFFICE_CONSOLE_FUNCTION } from "#shared/declarations/functions/backoffice-console";
import { pageHandler, regional } from "#shared/http/web-assets";
import { log } from "#shared/wiring/log";
import { pageConfig } from "#shared/wiring/page-config";

const config = pageConfig(BACKOFFICE_CONSOLE_FUNCTION);

export const handler = pageHandler(log, "backoffice", config.setting("WEB_ASSETS"), {
  identityEndpoint: config.optional("IDENTITY_ENDPOINT"),
  clientId: config.setting("STAFF_CLIENT_ID"),
  // Presigned links name the bucket as a virtual host in AWS, the engine's address locally.
  documentsOrigin:
    config.optional("S3_ENDPOINT") ??
    regional((region) => `https://${config.setting("UPLOADS_BUCKET")}.s3.${region}.amazonaws.com`),
});
