/**
 * GET /backoffice and GET /backoffice/assets/{file}: primary adapter for the review console's
 * files, built by web/build.ts into WEB_ASSETS and read once at cold start. No authorizer: the
 * page holds no data; everything it shows comes through the API with the staff member's token.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { readSettings } from "#shared/declarations/settings";
import { errorResponse } from "#shared/http/responses";
import { CONSOLE_FILES, type ConsoleFile, consoleResponder } from "#shared/http/web-assets";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";

const config = functionConfig("backoffice-console");
const { IDENTITY_ENDPOINT, S3_ENDPOINT } = readSettings(["IDENTITY_ENDPOINT", "S3_ENDPOINT"]);

/** An AWS service's regional address, in the region Lambda runs the function in. */
function regional(address: (region: string) => string): string {
  const region = process.env.AWS_REGION;
  if (!region) throw new Error("AWS_REGION is not set");
  return address(region);
}

const folder = path.resolve(config.setting("WEB_ASSETS"), "backoffice");
const files = Object.fromEntries(
  CONSOLE_FILES.map((name) => [name, readFileSync(path.join(folder, name), "utf8")]),
) as Record<ConsoleFile, string>;

const respond = consoleResponder(files, {
  identityEndpoint: IDENTITY_ENDPOINT ?? regional((region) => `https://cognito-idp.${region}.amazonaws.com/`),
  clientId: config.setting("STAFF_CLIENT_ID"),
  // Presigned links name the bucket as a virtual host in AWS, the engine's address locally.
  documentsOrigin:
    S3_ENDPOINT ?? regional((region) => `https://${config.setting("UPLOADS_BUCKET")}.s3.${region}.amazonaws.com`),
});

export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  try {
    return respond(event);
  } catch (error) {
    return errorResponse(error, event.requestContext.requestId, log);
  }
};
