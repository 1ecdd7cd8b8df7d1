/**
 * Checks an HTTP reply against the OpenAPI document: the operation by method and path (an
 * unknown route by the gateway's RouteNotFound response), the status among its responses, the
 * body against that status's schema for the reply's content type, and the documented headers.
 * The HTTP tests run every reply through it, so a test run is also a conformance run.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { buildDocument } from "../../openapi/document.ts";
import type { Json } from "../../openapi/parts.ts";

export interface ObservedReply {
  method: string;
  /** The request path, query included or not. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

const DOCUMENT_ID = "openapi.json";

/**
 * The published schemas leave objects open (new fields are not breaking changes); the tests
 * close them, so a field the API answers but the document does not name fails the run.
 */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (typeof node !== "object" || node === null) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closeObjects(value)]));
  if (copy.type === "object" && copy.properties && !("additionalProperties" in copy)) copy.additionalProperties = false;
  return copy;
}

const pointer = (segments: string[]) =>
  `#/${segments.map((segment) => segment.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;

export class Conformance {
  private readonly document: Json;
  /** Bodies are checked as sent; header values arrive as text, so coercion lets `Retry-After: 1` meet `integer`. */
  private readonly bodies: Ajv2020;
  private readonly headers: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly operations: { method: string; regex: RegExp; responsesAt: string[] }[];

  constructor(document: Json = buildDocument()) {
    this.document = closeObjects(document) as Json;
    this.bodies = this.validatorOf({});
    this.headers = this.validatorOf({ coerceTypes: true });
    const paths = this.document.paths as Record<string, Record<string, unknown>>;
    this.operations = Object.entries(paths).flatMap(([template, item]) =>
      Object.keys(item).map((method) => ({
        method: method.toUpperCase(),
        regex: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
        responsesAt: ["paths", template, method, "responses"],
      })),
    );
  }

  private validatorOf(options: { coerceTypes?: boolean }): Ajv2020 {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, ...options });
    addFormats(ajv);
    // The document is added whole so its `$ref`s resolve; its top-level fields are not schema keywords.
    for (const field of Object.keys(this.document)) ajv.addKeyword(field);
    ajv.addSchema(this.document, DOCUMENT_ID);
    return ajv;
  }

  /** The object at a JSON pointer's segments, following OpenAPI `$ref`s to components. */
  private resolve(segments: string[]): { value: Json; at: string[] } {
    let value: unknown = this.document;
    let at: string[] = [];
    for (const segment of segments) {
      value = (value as Json | undefined)?.[segment];
      at = [...at, segment];
      const ref = (value as Json | undefined)?.$ref;
      if (typeof ref === "string") {
        at = ref.replace(/^#\//, "").split("/");
        value = this.resolve(at).value;
      }
    }
    if (typeof value !== "object" || value === null) throw new Error(`The document has nothing at ${pointer(at)}`);
    return { value: value as Json, at };
  }

  private bodyValidator(at: string[]): ValidateFunction {
    const key = `body ${pointer(at)}`;
    const validate = this.validators.get(key) ?? this.bodies.compile({ $ref: `${DOCUMENT_ID}${pointer(at)}` });
    this.validators.set(key, validate);
    return validate;
  }

  /** One schema for a response's documented headers: each header's schema, the required ones required. */
  private headersValidator(responseAt: string[], response: Json): ValidateFunction {
    const key = `headers ${pointer(responseAt)}`;
    const known = this.validators.get(key);
    if (known) return known;
    const names = Object.keys((response.headers as Json | undefined) ?? {});
    const header = (name: string) => this.resolve([...responseAt, "headers", name]);
    const validate = this.headers.compile({
      type: "object",
      properties: Object.fromEntries(
        names.map((name) => [name.toLowerCase(), { $ref: `${DOCUMENT_ID}${pointer([...header(name).at, "schema"])}` }]),
      ),
      required: names.filter((name) => header(name).value.required === true).map((name) => name.toLowerCase()),
    });
    this.validators.set(key, validate);
    return validate;
  }

  /** Every way `reply` departs from the document; empty when it conforms. */
  problems(reply: ObservedReply): string[] {
    const pathname = new URL(reply.path, "http://localhost").pathname;
    const operation = this.operations.find((op) => op.method === reply.method && op.regex.test(pathname));
    const where = `${reply.method} ${pathname} -> ${reply.status}`;
    let responseAt: string[];
    if (operation) {
      const responses = this.resolve(operation.responsesAt).value;
      if (!(String(reply.status) in responses)) return [`${where}: the document lists no such status here`];
      responseAt = [...operation.responsesAt, String(reply.status)];
    } else if (this.operations.some((op) => op.regex.test(pathname))) {
      responseAt = ["components", "responses", "MethodNotAllowed"];
    } else {
      responseAt = ["components", "responses", "RouteNotFound"];
    }
    const { value: response, at } = this.resolve(responseAt);
    const found: string[] = [];

    const mediaType = reply.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
    const content = (response.content as Json | undefined) ?? {};
    if (response.content === undefined) {
      // A response documented with no body (a redirect) must have none.
      if (reply.text !== "") found.push(`${where}: a body where the document lists none`);
    } else if (!(mediaType in content)) {
      found.push(`${where}: content type "${mediaType}" is not one of ${Object.keys(content).join(", ")}`);
    } else {
      let body: unknown;
      try {
        body = JSON.parse(reply.text);
      } catch {
        found.push(`${where}: the body is not JSON`);
      }
      const validate = this.bodyValidator([...at, "content", mediaType, "schema"]);
      if (found.length === 0 && !validate(body)) found.push(...describe(where, "body", validate.errors));
    }

    const validateHeaders = this.headersValidator(at, response);
    if (!validateHeaders(Object.fromEntries(reply.headers.entries()))) {
      found.push(...describe(where, "headers", validateHeaders.errors));
    }
    return found;
  }
}

function describe(where: string, part: string, errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (error) =>
      `${where}: ${part}${error.instancePath || ""} ${error.message ?? "is invalid"} ${JSON.stringify(error.params)}`,
  );
}
