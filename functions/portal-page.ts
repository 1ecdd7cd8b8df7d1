/**
 * GET /portal and GET /portal/assets/{file}: primary adapter for the portal page's files, built
 * by web/build.ts into WEB_ASSETS and read once at cold start. No authorizer: the page holds no
 * data; everything it shows comes through the portal API with the signed-in user's token.
 */
import { readSettings } from "#shared/declarations/settings";
import { pageHandler } from "#shared/http/web-assets";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";

const config = functionConfig("portal-page");
const { IDENTITY_ENDPOINT } = readSettings(["IDENTITY_ENDPOINT"]);

export const handler = pageHandler(log, "portal", config.setting("WEB_ASSETS"), {
  identityEndpoint: IDENTITY_ENDPOINT,
  clientId: config.setting("PORTAL_CLIENT_ID"),
});
