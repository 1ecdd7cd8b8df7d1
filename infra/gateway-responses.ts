import { ResponseType, type RestApi } from "aws-cdk-lib/aws-apigateway";
import type { GatewayResponseDefinition, GatewayResponseType } from "#shared/declarations/gateway-responses";
import { PROBLEM_CONTENT_TYPE, PROBLEMS, problemBody } from "#shared/http/problems";
import { REQUEST_ID_HEADER } from "#shared/http/responses";

/**
 * Every gateway response an API sets, by API Gateway response type: its own table (the types
 * the local gateway also produces), and DEFAULT_4XX for the rest of API Gateway's own 4xx
 * answers. With no request validators, API keys, IAM auth or WAF on these APIs, the only one
 * it can still give is RESOURCE_NOT_FOUND, so it answers as the API's unknown route.
 */
export function deployedGatewayResponses(
  responses: Record<GatewayResponseType, GatewayResponseDefinition>,
): Record<string, GatewayResponseDefinition> {
  return { ...responses, DEFAULT_4XX: responses.MISSING_AUTHENTICATION_TOKEN };
}

/** Gateway response templates take `$context` variables by plain substitution (no VTL). */
const REQUEST_ID_VARIABLE = "$context.requestId";

/**
 * The problem+json body, `Request-Id` header and status of each of `api`'s gateway responses.
 * The status is the catalogue's, so it always agrees with the body's `status` (for example a
 * missing route is 404, not API Gateway's 403).
 */
export function addGatewayResponses(
  api: RestApi,
  responses: Record<GatewayResponseType, GatewayResponseDefinition>,
): void {
  for (const [type, definition] of Object.entries(deployedGatewayResponses(responses))) {
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
