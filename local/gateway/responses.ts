/** What goes back to the client: the gateway's own problem responses, the written response, the access log. */
import type http from "node:http";
import type { APIGatewayProxyResult } from "aws-lambda";
import {
  type GatewayResponseDefinition,
  type GatewayResponseType,
  METHOD_NOT_ALLOWED,
} from "#shared/declarations/gateway-responses";
import type { ApiDefinition } from "#shared/declarations/routes";
import { PROBLEM_CONTENT_TYPE, problemBody } from "#shared/http/problems";
import { REQUEST_ID_HEADER } from "#shared/http/responses";

/** The problem+json response the API answers with by itself, as the stack's gateway responses define it. */
export function gatewayResponse(
  api: ApiDefinition,
  type: GatewayResponseType,
  requestId: string,
): APIGatewayProxyResult {
  const definition = api.gatewayResponses[type];
  if (!definition) throw new Error(`The API defines no ${type} gateway response`);
  return problemResponse(definition, requestId);
}

/** The 405 of a known path called with another method, naming the methods it takes. */
export function methodNotAllowedResponse(allow: string[], requestId: string): APIGatewayProxyResult {
  return problemResponse({ ...METHOD_NOT_ALLOWED, headers: { Allow: allow.join(", ") } }, requestId);
}

function problemResponse(definition: GatewayResponseDefinition, requestId: string): APIGatewayProxyResult {
  const body = problemBody(definition.code, definition.detail, requestId);
  return {
    statusCode: body.status,
    headers: {
      "Content-Type": PROBLEM_CONTENT_TYPE,
      [REQUEST_ID_HEADER]: requestId,
      ...definition.headers,
    },
    body: JSON.stringify(body),
  };
}

/** Writes the status, the headers with Content-Length, and the body. */
export function writeResponse(res: http.ServerResponse, result: APIGatewayProxyResult): void {
  const body = result.body ?? "";
  res.writeHead(result.statusCode, {
    ...result.headers,
    "Content-Length": Buffer.byteLength(body),
  } as http.OutgoingHttpHeaders);
  res.end(body);
}

/** Prints the request's JSON access-log line; `started` is its `process.hrtime.bigint()`. */
export function writeAccessLog(req: http.IncomingMessage, requestId: string, status: number, started: bigint): void {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(
    `${JSON.stringify({ request_id: requestId, method: req.method, path: req.url?.split("?")[0], status, ms: Math.round(ms * 10) / 10 })}\n`,
  );
}
