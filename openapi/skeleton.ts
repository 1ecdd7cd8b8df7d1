/**
 * The document every API's builder fills in: OpenAPI 3.1 at the API's version, a server per
 * environment and the local one, one security scheme every operation needs unless it says
 * otherwise, the problems any path answers (no such route, no such method), and the component
 * schemas of the zod schemas the handlers use, with Problem limited to the codes the API answers.
 */
import type { GatewayResponseDefinition } from "#shared/declarations/gateway-responses";
import { API_VERSION } from "#shared/domain/webhook-events";
import type * as z from "#shared/domain/zod";
import {
  componentSchemasOf,
  gatewayCodesOf,
  type Json,
  methodNotAllowedResponse,
  type OperationDefinitionBase,
  problemResponse,
  serversOf,
} from "./parts.ts";

/** What one API's document says of its own; the rest is the skeleton's. */
export interface ApiDescription {
  title: string;
  description: string;
  servers: Parameters<typeof serversOf>[0];
  /** The scheme every operation needs unless it says otherwise, under its component name. */
  security: { name: string; scheme: Json };
  tags: { name: string; description: string }[];
  paths: Json;
  /** What the API sends rather than answers (the public API's events). */
  webhooks?: Json;
  parameters: Record<string, Json>;
  headers: Record<string, Json>;
  /** What the API Gateway in front answers by itself, on every route. */
  gatewayResponses: Record<string, GatewayResponseDefinition>;
  /** The operations, for the codes the Problem schema names. */
  operations: Record<string, OperationDefinitionBase>;
  /** Every schema an answer (or an event) carries, under its component name, in the document's order. */
  responseSchemas: Record<string, z.ZodMiniType>;
  /** The request bodies, under their component names. */
  requestSchemas: Record<string, z.ZodMiniType>;
}

/** The whole document. Pure: the same description always builds the same document. */
export function documentOf(api: ApiDescription): Json {
  const { gatewayResponses } = api;
  return {
    openapi: "3.1.0",
    info: { title: api.title, version: API_VERSION, description: api.description },
    servers: serversOf(api.servers),
    security: [{ [api.security.name]: [] }],
    tags: api.tags,
    paths: api.paths,
    ...(api.webhooks ? { webhooks: api.webhooks } : {}),
    components: {
      securitySchemes: { [api.security.name]: api.security.scheme },
      parameters: api.parameters,
      headers: api.headers,
      responses: {
        RouteNotFound: problemResponse(["route_not_found"], gatewayResponses),
        MethodNotAllowed: methodNotAllowedResponse(gatewayResponses),
      },
      schemas: componentSchemasOf(api.responseSchemas, api.requestSchemas, [
        ...Object.values(api.operations).flatMap((operation) => operation.problems),
        ...gatewayCodesOf(gatewayResponses),
      ]),
    },
  };
}
