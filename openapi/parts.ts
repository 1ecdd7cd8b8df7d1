/**
 * What the three OpenAPI documents build alike: the servers of a stack output, the component
 * schemas, parameters and JSON answers, query parameters from a handler's query schema, the
 * problem responses of an operation grouped by status, and the page operations of a web page an
 * API serves. `skeleton.ts` puts them together into a document.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { GatewayResponseDefinition } from "#shared/declarations/gateway-responses";
import { MAX_FILE_SIZE_BYTES } from "#shared/domain/document-types";
import { ENVIRONMENTS } from "#shared/domain/environments";
import { APPS_PER_ORGANIZATION } from "#shared/domain/tenant-limits";
import * as z from "#shared/domain/zod";
import { problemSchema } from "#shared/http/problem-schema";
import { PROBLEM_CONTENT_TYPE, PROBLEMS, type ProblemCode, problemBody } from "#shared/http/problems";
import { REQUEST_ID_HEADER } from "#shared/http/responses";

export const JSON_CONTENT_TYPE = "application/json";
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

export type Json = Record<string, unknown>;

/** The `Request-Id` header of the signed-in APIs, where the same id is also the audit record's. */
export const AUDITED_REQUEST_ID_HEADER: Json = {
  description: "Identifies this request: the same value as `request_id` in an error body and in the audit trail.",
  required: true,
  schema: { type: "string", minLength: 1 },
};

/** The `Cache-Control: no-store` of an answer that must never be cached, and why. */
export function noStoreHeader(description: string): Json {
  return { description, required: true, schema: { type: "string", const: "no-store" } };
}

/** A bearer token of a user pool: how the signed-in APIs authenticate. */
export function bearerScheme(description: string): Json {
  return { type: "http", scheme: "bearer", bearerFormat: "JWT", description };
}

/** A path parameter's component: a string, what it names, an example. */
export function pathParameter(name: string, description: string, example: string): Json {
  return { name, in: "path", required: true, description, schema: { type: "string" }, example };
}

/** What a JSON body or answer may show besides its schema: one example, or several by name. */
interface Samples {
  example?: Json;
  examples?: Record<string, { summary: string; value: Json }>;
}

/** JSON content of the named component, with its samples. */
function jsonContent(schema: string, { example, examples }: Samples): Json {
  return {
    [JSON_CONTENT_TYPE]: {
      schema: schemaRef(schema),
      ...(example ? { example } : {}),
      ...(examples ? { examples } : {}),
    },
  };
}

/** A JSON request body of the named component. */
export function jsonBody(schema: string, required: boolean, samples: Samples): Json {
  return { required, content: jsonContent(schema, samples) };
}

/** A JSON answer of the named component, with `Request-Id` and the headers named. */
export function jsonResponse(description: string, schema: string, headers: Json = {}, samples: Samples = {}): Json {
  return {
    description,
    headers: { [REQUEST_ID_HEADER]: headerRef("RequestId"), ...headers },
    content: jsonContent(schema, samples),
  };
}

/** What every document says of an API operation, beside how it succeeds. */
export interface OperationDefinitionBase {
  operationId: string;
  summary: string;
  description: string;
  query?: z.ZodMiniObject;
  /** The problems the function itself may answer, beside the gateway's. */
  problems: ProblemCode[];
}

/**
 * An operation's parameters: the path's (each placeholder's component, in the order named), the
 * headers' components named, then the query's fields.
 */
export function parametersOf(
  path: string,
  pathParameters: Record<string, string>,
  headerParameters: string[],
  query: z.ZodMiniObject | undefined,
): Json[] {
  return [
    ...Object.entries(pathParameters)
      .filter(([placeholder]) => path.includes(placeholder))
      .map(([, name]) => parameterRef(name)),
    ...headerParameters.map(parameterRef),
    ...(query ? queryParameters(query) : []),
  ];
}

/** An API operation as every document writes one: `parameters` only when it takes some. */
export function apiOperationOf(operation: {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: Json[];
  requestBody?: Json;
  responses: Json;
}): Json {
  const { parameters, requestBody } = operation;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: operation.tags,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: operation.responses,
  };
}

const EXAMPLE_REQUEST_ID = "3f0c2b9e-6d1a-4c57-9b8e-2a4f1d7c9e60";

/** Codes whose responses carry `Retry-After` (the gateway's throttling, a busy dependency, a key in flight). */
const RETRY_AFTER_CODES: ReadonlySet<ProblemCode> = new Set([
  "idempotency_request_in_progress",
  "rate_limited",
  "service_unavailable",
]);

/** Zod's names for string checks that JSON Schema already expresses as `pattern`. */
const ZOD_ONLY_FORMATS = new Set(["starts_with", "ends_with", "includes"]);

export function jsonSchemaOf(io: "input" | "output") {
  return {
    target: "draft-2020-12" as const,
    io,
    override: ({ jsonSchema }: { jsonSchema: Json }) => {
      if (typeof jsonSchema.format === "string" && ZOD_ONLY_FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
      // What the API answers stays open to new fields: adding one is not a breaking change.
      if (io === "output" && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  };
}

/**
 * A document's component schemas: what its responses carry (`responses`, by component name in
 * the document's order, open to new fields), what its requests take (strict: unknown fields are
 * refused with 422), and the shared Problem schema limited to the codes the document's own
 * operations answer (it names every API's).
 */
export function componentSchemasOf(
  responses: Record<string, z.ZodMiniType>,
  requests: Record<string, z.ZodMiniType>,
  codes: readonly ProblemCode[],
): Record<string, Json> {
  // One registry per document: a schema's `$ref` names its component in this document.
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(responses)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    ...jsonSchemaOf("output"),
    uri: (id) => `#/components/schemas/${id}`,
  });
  const byName: Record<string, Json> = {
    ...Object.fromEntries(
      Object.entries(requests).map(([name, schema]) => [name, z.toJSONSchema(schema, jsonSchemaOf("input")) as Json]),
    ),
    ...(schemas as Record<string, Json>),
  };
  // Components are addressed by their place in the document, not by a `$id` or dialect of their own.
  for (const schema of Object.values(byName)) {
    delete schema.$schema;
    delete schema.$id;
  }
  const problem = byName.Problem as { properties: { code: { enum: string[] } } } | undefined;
  if (!problem) throw new Error("The document has no Problem schema");
  // Every route also answers the request edges' codes, and a declared path the 405 of a method it does not take.
  const answered = new Set<string>([...codes, ...EDGE_CODES, "method_not_allowed"]);
  problem.properties.code.enum = problem.properties.code.enum.filter((code) => answered.has(code));
  return byName;
}

function problemExample(code: ProblemCode, gatewayResponses: Record<string, GatewayResponseDefinition>): Json {
  const gateway = Object.values(gatewayResponses).find((response) => response.code === code);
  const errors =
    code === "validation_failed"
      ? [
          {
            field: "file_size_bytes",
            code: "too_large",
            message: `file_size_bytes must be at most ${MAX_FILE_SIZE_BYTES}`,
          },
        ]
      : undefined;
  const detail = errors?.[0]?.message ?? gateway?.detail ?? PROBLEMS[code].title;
  // The example of `limit_reached` names the limit an app create meets.
  const limit =
    code === "limit_reached" ? { name: "apps_per_organization" as const, max: APPS_PER_ORGANIZATION } : undefined;
  return problemSchema.parse(problemBody(code, detail, EXAMPLE_REQUEST_ID, { errors, limit }));
}

/** One response per status: the problem+json body, with `code` limited to what this status may carry here. */
export function problemResponse(
  codes: ProblemCode[],
  gatewayResponses: Record<string, GatewayResponseDefinition>,
): Json {
  const status = PROBLEMS[codes[0] as ProblemCode].status;
  const retryAfter = codes.filter((code) => RETRY_AFTER_CODES.has(code));
  return {
    description: codes.map((code) => `\`${code}\`: ${PROBLEMS[code].title}`).join(". "),
    headers: {
      [REQUEST_ID_HEADER]: headerRef("RequestId"),
      ...(retryAfter.length > 0
        ? {
            "Retry-After": {
              description: `Seconds to wait before retrying${retryAfter.length < codes.length ? `; sent with ${retryAfter.map((code) => `\`${code}\``).join(", ")}` : ""}`,
              required: retryAfter.length === codes.length,
              schema: { type: "integer", minimum: 0 },
            },
          }
        : {}),
    },
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: {
          allOf: [
            schemaRef("Problem"),
            { properties: { status: { const: status }, code: { type: "string", enum: codes } } },
          ],
        },
        examples: Object.fromEntries(
          codes.map((code) => [code, { summary: PROBLEMS[code].title, value: problemExample(code, gatewayResponses) }]),
        ),
      },
    },
  };
}

/**
 * A document as its committed file holds it: formatted by the project's own formatter, so the
 * file passes `biome ci` and a fresh build compares equal byte for byte.
 */
export function renderJson(document: Json, fileName: string): string {
  return formatted(JSON.stringify(document, null, 2), fileName);
}

/** `source` as the project's formatter writes a file called `fileName` (JSON or TypeScript). */
export function formatted(source: string, fileName: string): string {
  const root = path.resolve(__dirname, "..");
  return execFileSync(path.join(root, "node_modules/.bin/biome"), ["format", `--stdin-file-path=${fileName}`], {
    cwd: root,
    input: source,
    encoding: "utf8",
  });
}

/** One server per environment (a stack output names its base URL), and the local runtime's. */
export function serversOf(api: { output: string; idPrefix: string; localUrl: string }): Json[] {
  return [
    ...ENVIRONMENTS.map((environment) => ({
      url: "https://{apiId}.execute-api.{region}.amazonaws.com/{stage}",
      description: `${environment[0]?.toUpperCase()}${environment.slice(1)}: the stack output ${api.output}`,
      variables: {
        apiId: {
          default: `${environment}-${api.idPrefix}-id`,
          description: `The REST API id of the ${environment} stack`,
        },
        region: { default: "eu-central-1", description: `The AWS region of the ${environment} stack` },
        stage: { default: environment, enum: [environment], description: "The stage is named after the environment" },
      },
    })),
    { url: api.localUrl, description: "Local: `npm start`" },
  ];
}

/** Query parameters from a handler's query schema: each field, its description, whether it is required. */
function queryParameters(schema: z.ZodMiniObject): Json[] {
  const json = z.toJSONSchema(schema, jsonSchemaOf("input")) as {
    properties: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: "query",
      required: json.required?.includes(name) === true && !("default" in rest),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** What every route refuses before its work (`shared/http/edges.ts`), beside its own codes and the gateway's. */
const EDGE_CODES: readonly ProblemCode[] = [
  "duplicate_header",
  "malformed_json",
  "payload_too_large",
  "unsupported_media_type",
];

/** The codes the API Gateway in front answers by itself, on every route. */
export function gatewayCodesOf(gatewayResponses: Record<string, GatewayResponseDefinition>): ProblemCode[] {
  return Object.values(gatewayResponses).map((response) => response.code);
}

/**
 * One problem response per status the operation may answer (its own codes, the gateway's and
 * the request edges'), in order.
 */
export function problemResponses(
  codes: readonly ProblemCode[],
  gatewayResponses: Record<string, GatewayResponseDefinition>,
): Json {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set([...codes, ...gatewayCodesOf(gatewayResponses), ...EDGE_CODES])) {
    byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.keys()]
      .sort((a, b) => a - b)
      .map((status) => {
        const here = byStatus.get(status) ?? [];
        const onlyRouteNotFound = here.length === 1 && here[0] === "route_not_found";
        return [
          String(status),
          onlyRouteNotFound
            ? { $ref: "#/components/responses/RouteNotFound" }
            : problemResponse(here, gatewayResponses),
        ];
      }),
  );
}

/** The 405 a declared path answers for a method it does not take, with the methods it takes in `Allow`. */
export function methodNotAllowedResponse(gatewayResponses: Record<string, GatewayResponseDefinition>): Json {
  const response = problemResponse(["method_not_allowed"], gatewayResponses);
  return {
    ...response,
    description: "`method_not_allowed`: the path does not take this method; `Allow` lists those it takes",
    headers: {
      ...(response.headers as Json),
      Allow: { description: "The path's methods, comma-separated", required: true, schema: { type: "string" } },
    },
  };
}

/** A web page's own routes (the page and its files), served with no credential. */
function pageOperation(
  route: { path: string },
  page: { root: string; name: string; description: string; files: readonly string[]; tag: string; idPrefix: string },
): Json {
  const isPage = route.path === page.root;
  return {
    operationId: isPage ? `${page.idPrefix}Page` : `${page.idPrefix}Asset`,
    summary: isPage ? `The ${page.name}` : `A file of the ${page.name}`,
    description: isPage
      ? page.description
      : `${page.files.map((file) => `\`${file}\``).join(" or ")}; any other name is 404.`,
    tags: [page.tag],
    security: [],
    ...(isPage
      ? {}
      : {
          parameters: [{ name: "file", in: "path", required: true, schema: { type: "string", enum: [...page.files] } }],
        }),
    responses: {
      "200": {
        description: isPage ? "The page" : "The file",
        headers: { [REQUEST_ID_HEADER]: { $ref: "#/components/headers/RequestId" } },
        content: isPage
          ? { "text/html": { schema: { type: "string" } } }
          : { "text/javascript": { schema: { type: "string" } }, "text/css": { schema: { type: "string" } } },
      },
      ...(isPage
        ? { "308": { description: `To \`${page.root.slice(1)}/\`, so the page's relative links resolve` } }
        : {}),
      "304": { description: "Not modified since the `ETag` sent in `If-None-Match`" },
      "404": { $ref: "#/components/responses/RouteNotFound" },
    },
  };
}

/** An API's paths: its page's routes, if it serves one, as page operations; every other as `apiOperation` builds it. */
export function pathsOf<Route extends { method: string; path: string; function: string }>(
  routes: readonly Route[],
  apiOperation: (route: Route) => Json,
  page?: Parameters<typeof pageOperation>[1] & { function: string },
): Json {
  const byPath: Record<string, Json> = {};
  for (const route of routes) {
    const operation = route.function === page?.function ? pageOperation(route, page) : apiOperation(route);
    byPath[route.path] = { ...byPath[route.path], [route.method.toLowerCase()]: operation };
  }
  return byPath;
}
