/**
 * GET /portal and GET /portal/assets/{file}: primary adapter for the portal page's files, built
 * by web/build.ts into WEB_ASSETS and read once at cold start. No authorizer: the page holds no
 * data; everything it shows comes through the portal API with the signed-in user's token.
 */
import { PORTAL_PAGE_FUNCTION } from "#shared/declarations/functions/portal-page";
import { pageHandler } from "#shared/http/web-assets";
import { log } from "#shared/wiring/log";
import { pageConfig } from "#shared/wiring/page-config";

const config = pageConfig(PORTAL_PAGE_FUNCTION);

export const handler = pageHandler(log, "portal", config.setting("WEB_ASSETS"), {
  identityEndpoint: config.optional("IDENTITY_ENDPOINT"),
  clientId: config.setting("PORTAL_CLIENT_ID"),
});
