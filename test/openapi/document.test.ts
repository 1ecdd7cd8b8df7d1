/**
 * The OpenAPI document: committed as generated, complete for every route, status, code and
 * event, and a validator that really refuses replies the document does not describe.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GATEWAY_RESPONSES } from "#shared/declarations/gateway-responses";
import { ROUTES } from "#shared/declarations/public-api";
import { EVENT_TYPES, WEBHOOK_HEADERS } from "#shared/domain/webhook-events";
import { PROBLEM_CODES, PROBLEMS, problemBody } from "#shared/http/problems";
import { buildBackofficeDocument } from "../../openapi/backoffice.ts";
import { buildDocument, renderDocument } from "../../openapi/document.ts";
import type { Json } from "../../openapi/parts.ts";
import { buildPortalDocument } from "../../openapi/portal.ts";
import { codesOf, namedCodes } from "./codes.ts";
import { Conformance, type ObservedReply } from "./conformance.ts";

const root = path.resolve(__dirname, "../..");
const document = buildDocument();
const paths = document.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
const components = document.components as Record<string, Record<string, Json>>;

describe("openapi.json", () => {
  it("is committed exactly as `npm run openapi` generates it", () => {
    const committed = readFileSync(path.join(root, "openapi.json"), "utf8");
    expect(committed === renderDocument(), "openapi.json is stale: run `npm run openapi`").toBe(true);
    expect(JSON.parse(committed)).toEqual(document);
  });

  it("describes each route of the route table, and only those, with the API key required", () => {
    const documented = Object.entries(paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method.toLowerCase()} ${route.path}`).sort());
    expect(document.security).toEqual([{ ApiKey: [] }]);
    expect(components.securitySchemes?.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
  });

  it("lists on every route each problem API Gateway itself may answer, with its code", () => {
    const gatewayCodes = Object.values(GATEWAY_RESPONSES).map((response) => response.code);
    for (const route of ROUTES) {
      const responses = paths[route.path]?.[route.method.toLowerCase()]?.responses ?? {};
      for (const code of gatewayCodes) {
        const status = String(PROBLEMS[code].status);
        expect(responses[status], `${route.method} ${route.path} ${status}`).toBeDefined();
        expect(codesOf(responses[status] as Json, document), `${route.method} ${route.path} ${status}`).toContain(code);
      }
    }
  });

  it("names every code of the problem catalogue in one of the three documents, each under its own status", () => {
    const publicCodes = namedCodes(document);
    const backofficeCodes = namedCodes(buildBackofficeDocument());
    const portalCodes = namedCodes(buildPortalDocument());
    expect([...new Set([...publicCodes, ...backofficeCodes, ...portalCodes])].sort()).toEqual(
      [...PROBLEM_CODES].sort(),
    );
    // A code only the backoffice answers is not in the public document, not even in its Problem schema.
    const publicProblem = components.schemas?.Problem as { properties: { code: { enum: string[] } } };
    expect([...publicProblem.properties.code.enum].sort()).toEqual([...publicCodes].sort());
    expect(publicCodes).not.toContain("review_claimed");
    expect(publicCodes).not.toContain("too_many_live_keys");
  });

  it("declares the create call's Idempotency-Key and its success headers", () => {
    const create = paths["/v1/verifications"]?.post as unknown as {
      parameters: Json[];
      responses: Record<string, Json>;
    };
    expect(create.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    expect(components.parameters?.IdempotencyKey).toMatchObject({
      name: "Idempotency-Key",
      in: "header",
      required: true,
    });
    expect(Object.keys(create.responses["201"]?.headers as Json).sort()).toEqual(
      ["Idempotent-Replayed", "Location", "Request-Id"].sort(),
    );
    expect(Object.keys(create.responses["429"]?.headers as Json).sort()).toEqual(["Request-Id", "Retry-After"]);
  });

  it("describes every webhook event with its Standard Webhooks signature headers", () => {
    const webhooks = document.webhooks as Record<string, { post: { parameters: { $ref: string }[] } }>;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const headerNames = (ref: { $ref: string }) => components.parameters?.[ref.$ref.split("/").at(-1) ?? ""]?.name;
    for (const type of EVENT_TYPES) {
      expect(webhooks[type]?.post.parameters.map(headerNames).sort()).toEqual(Object.values(WEBHOOK_HEADERS).sort());
    }
  });

  it("offers the sandbox, production and local servers", () => {
    const servers = document.servers as { description: string }[];
    expect(servers.map((server) => server.description.split(":")[0])).toEqual(["Sandbox", "Production", "Local"]);
  });
});

describe("the conformance check the HTTP tests run", () => {
  const conformance = new Conformance(document);
  const requestId = "0b8f8c4e-2a55-4a0c-9d5e-6b1f3c2a7e90";
  const verification = {
    verification_id: "ver_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0",
    status: "processing",
    result: null,
    document_type: "YOK_STUDENT",
    process_type: "async",
    external_reference_id: null,
    original_filename: "a.pdf",
    file_size_bytes: 10,
    environment: "sandbox",
    upload_deadline: "2026-11-23T12:00:00Z",
    checks: [],
    reasons: [],
    failure_code: null,
    sequence: 2,
    created_at: "2026-11-22T12:00:00Z",
    updated_at: "2026-11-22T12:00:00Z",
    completed_at: null,
    metadata: {},
    reason_code: "processing",
    message: "The document is being checked",
    extracted: null,
    fraud_signals: [],
    review: null,
    redacted_at: null,
    max_document_age_days: null,
  };
  const reply = (overrides: Partial<ObservedReply> & { body?: unknown; headerValues?: Record<string, string> }) => ({
    method: "GET",
    path: `/v1/verifications/${verification.verification_id}`,
    status: 200,
    text: JSON.stringify(overrides.body ?? verification),
    headers: new Headers({ "Content-Type": "application/json", "Request-Id": requestId, ...overrides.headerValues }),
    ...overrides,
  });
  const problem = (code: keyof typeof PROBLEMS) => problemBody(code, "detail", requestId);

  it("accepts a reply the document describes", () => {
    expect(conformance.problems(reply({}))).toEqual([]);
    expect(
      conformance.problems(
        reply({
          method: "POST",
          path: "/v1/verifications",
          status: 201,
          headerValues: {
            Location: `https://api.example.com/sandbox/v1/verifications/${verification.verification_id}`,
            "Idempotent-Replayed": "true",
          },
        }),
      ),
    ).toEqual([]);
  });

  it("refuses a status the operation does not list", () => {
    expect(conformance.problems(reply({ status: 418 }))).toEqual([
      `GET /v1/verifications/${verification.verification_id} -> 418: the document lists no such status here`,
    ]);
  });

  it("refuses a field the document does not name, and a wrong type", () => {
    expect(conformance.problems(reply({ body: { ...verification, internal_note: "x" } })).join()).toMatch(
      /additional properties/,
    );
    expect(conformance.problems(reply({ body: { ...verification, sequence: "2" } })).join()).toMatch(/\/sequence/);
  });

  it("refuses a missing required header, and a header of the wrong form", () => {
    expect(
      conformance.problems(reply({ headers: new Headers({ "Content-Type": "application/json" }) })).join(),
    ).toMatch(/request-id/);
    const created = { method: "POST", path: "/v1/verifications", status: 201 };
    expect(conformance.problems(reply(created)).join()).toMatch(/location/);
    const throttled = {
      status: 429,
      body: problem("rate_limited"),
      headerValues: { "Content-Type": "application/problem+json", "Retry-After": "soon" },
    };
    expect(conformance.problems(reply(throttled)).join()).toMatch(/retry-after/);
  });

  it("refuses a code this status may not carry on this route, and a wrong content type", () => {
    const wrongCode = {
      status: 404,
      body: problemBody("validation_failed", "detail", requestId),
      headerValues: { "Content-Type": "application/problem+json" },
    };
    expect(conformance.problems(reply(wrongCode)).join()).toMatch(/\/code/);
    expect(conformance.problems(reply({ status: 404, body: problem("verification_not_found") })).join()).toMatch(
      /content type "application\/json"/,
    );
  });

  it("checks an unknown route against the gateway's route_not_found", () => {
    const unknown = {
      method: "DELETE",
      path: "/v1/things",
      status: 404,
      headerValues: { "Content-Type": "application/problem+json" },
    };
    expect(conformance.problems(reply({ ...unknown, body: problem("route_not_found") }))).toEqual([]);
    expect(conformance.problems(reply({ ...unknown, body: problem("verification_not_found") })).join()).toMatch(
      /\/code/,
    );
  });
});
