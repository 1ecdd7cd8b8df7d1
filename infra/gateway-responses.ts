import { ResponseType, type RestApi } from "aws-cdk-lib/aws-apigateway";
import { GATEWAY_RESPONSES, type GatewayResponseDefinition } from "#shared/declarations/gateway-responses";
import { PROBLEM_CONTENT_TYPE, PROBLEMS, problemBody } from "#shared/http/problems";
import { REQUEST_ID_HEADER } from "#shared/http/responses";

/**
 * Every gateway response the stack sets, by API Gateway response type. The shared table
 * names the types the local gateway also produces; DEFAULT_4XX covers the rest of API
 * Gateway's own 4xx answers. With no request validators, API keys, IAM auth or WAF on this
 * API, the only one it can still give is RESOURCE_NOT_FOUND, so it answers as an unknown route.
 */
export const DEPLOYED_GATEWAY_RESPONSES: Record<string, GatewayResponseDefinition> = {
  ...GATEWAY_RESPONSES,
  DEFAULT_4XX: GATEWAY_RESPONSES.MISSING_AUTHENTICATION_TOKEN,
};

/** Gateway response templates take `$context` variables by plain substitution (no VTL). */
const REQUEST_ID_VARIABLE = "$context.requestId";

/**
 * The problem+json body, `Request-Id` header and status of each gateway response. The
 * status is the catalogue's, so it always agrees with the body's `status` (for example a
 * missing route is 404, not API Gateway's 403).
 */
export function addGatewayResponses(api: RestApi): void {
  for (const [type, definition] of Object.entries(DEPLOYED_GATEWAY_RESPONSES)) {
    const extraHeaders = Object.entries(definition.headers ?? {}).map(([name, value]) => [name, `'${value}'`]);
    api.addGatewayResponse(`GatewayResponse${type}`, {
      type: ResponseType.of(type),
      statusCode: String(PROBLEMS[definition.code].status),
      responseHeaders: {
        "Content-Type": `'${PROBLEM_CONTENT_TYPE}'`,
        [REQUEST_ID_HEADER]: "context.requestId",
        ...Object.fromEntries(extraHeaders),
      },
      templates: {
        "application/json": JSON.stringify(problemBody(definition.code, definition.detail, REQUEST_ID_VARIABLE)),
      },
    });
  }
}
