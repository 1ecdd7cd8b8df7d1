/**
 * The project's own authority service (sandbox stack and local runtime), behind a function URL:
 * primary adapter (HTTP) -> use case `lookupIssuerDocument` -> the certificate folders. It
 * speaks the issuer-lookup contract that production integrations speak, bearer secret included.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { ISSUER_LOOKUP_PATH, issuerLookupRequestSchema } from "#shared/domain/issuer-lookup";
import { lookupIssuerDocument } from "#shared/use-cases/issuer-lookup";
import { authorityService } from "#shared/wiring/authority";
import { functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";

const service = authorityService(functionConfig("authority"));

/** The lookup body is a few identifiers; anything larger is refused unread. */
const MAX_BODY_BYTES = 4096;

const answer = (statusCode: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { "content-type": "application/json", "cache-control": "no-store" },
  body: JSON.stringify(body),
});

const digest = (text: string) => createHash("sha256").update(text).digest();

async function authorized(header: string | undefined): Promise<boolean> {
  const presented = header?.match(/^Bearer (.+)$/)?.[1];
  if (!presented) return false;
  return timingSafeEqual(digest(presented), digest(await service.secret()));
}

function parsedBody(event: APIGatewayProxyEventV2): unknown {
  const raw = event.body ?? "";
  const text = event.isBase64Encoded ? Buffer.from(raw, "base64").toString("utf8") : raw;
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  if (event.requestContext.http.method !== "POST" || event.rawPath !== ISSUER_LOOKUP_PATH) {
    return answer(404, { error: "route_not_found" });
  }
  if (!(await authorized(event.headers.authorization))) return answer(401, { error: "unauthorized" });
  const request = issuerLookupRequestSchema.safeParse(parsedBody(event));
  if (!request.success) return answer(400, { error: "invalid_request" });
  try {
    const found = await lookupIssuerDocument(service, {
      documentType: request.data.document_type,
      barcode: request.data.barcode,
      identityNumber: request.data.identity_number,
    });
    if (found.kind === "found") {
      return answer(200, { found: true, document: Buffer.from(found.document).toString("base64") });
    }
    return found.kind === "not_found" ? answer(404, { found: false }) : answer(503, { error: "unavailable" });
  } catch (error) {
    log.error("issuer lookup failed", { error });
    return answer(503, { error: "unavailable" });
  }
};
