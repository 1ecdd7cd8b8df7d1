/**
 * The backoffice API's OpenAPI document: committed as generated, complete for every route of
 * its table and only those, bearer-protected except the console's files, and every example
 * valid against the schemas the handlers use.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BACKOFFICE_ROUTES } from "#shared/declarations/backoffice-api";
import { BACKOFFICE_GATEWAY_RESPONSES } from "#shared/declarations/gateway-responses";
import { buildBackofficeDocument, renderBackofficeDocument } from "../../openapi/backoffice.ts";
import type { Json } from "../../openapi/parts.ts";
import { namedCodes } from "./codes.ts";
import { Conformance } from "./conformance.ts";

const root = path.resolve(__dirname, "../..");
const document = buildBackofficeDocument();
type Operation = { security?: unknown[]; description: string; responses: Record<string, Json> };
const paths = document.paths as Record<string, Record<string, Operation>>;

describe("openapi-backoffice.json", () => {
  it("is committed exactly as `npm run openapi` generates it", () => {
    const committed = readFileSync(path.join(root, "openapi-backoffice.json"), "utf8");
    expect(committed === renderBackofficeDocument(), "openapi-backoffice.json is stale: run `npm run openapi`").toBe(
      true,
    );
    expect(JSON.parse(committed)).toEqual(document);
  });

  it("describes each backoffice route, and only those: the staff API with a bearer token and its groups, the console with none", () => {
    const documented = Object.entries(paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(
      BACKOFFICE_ROUTES.map((route) => `${route.method.toLowerCase()} ${route.path}`).sort(),
    );
    expect(document.security).toEqual([{ StaffToken: [] }]);
    for (const route of BACKOFFICE_ROUTES) {
      const operation = paths[route.path]?.[route.method.toLowerCase()] as Operation;
      if ("groups" in route) {
        expect(operation.security).toBeUndefined();
        for (const group of route.groups) expect(operation.description).toContain(`\`${group}\``);
      } else {
        expect(operation.security).toEqual([]);
      }
    }
  });

  it("lists the gateway's own answers on every staff API route", () => {
    const gatewayCodes = Object.values(BACKOFFICE_GATEWAY_RESPONSES).map((response) => response.code);
    const api = BACKOFFICE_ROUTES.filter((route) => "groups" in route);
    const named = namedCodes(document);
    for (const code of gatewayCodes) expect(named).toContain(code);
    for (const route of api) {
      const responses = paths[route.path]?.[route.method.toLowerCase()]?.responses ?? {};
      for (const status of ["401", "403", "429", "500", "503"]) expect(Object.keys(responses)).toContain(status);
    }
  });

  it("has examples the document's own schemas accept", () => {
    const conformance = new Conformance(document);
    const headers = new Headers({ "content-type": "application/json", "request-id": "r-1", etag: '"3"' });
    for (const [route, method, status] of [
      ["/backoffice/v1/reviews", "get", "200"],
      ["/backoffice/v1/reviews/{verification_id}/claim", "post", "200"],
      ["/backoffice/v1/reviews/{verification_id}/decision", "post", "200"],
      ["/backoffice/v1/verifications/{verification_id}", "get", "200"],
      ["/backoffice/v1/audit", "get", "200"],
    ] as const) {
      const response = paths[route]?.[method]?.responses[status] as {
        content: Record<string, { example: unknown }>;
      };
      const example = response.content["application/json"]?.example;
      expect(example, route).toBeDefined();
      const concrete = route.replace("{verification_id}", "ver_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0");
      const reply = {
        method: method.toUpperCase(),
        path: concrete,
        status: 200,
        headers,
        text: JSON.stringify(example),
      };
      expect(conformance.problems(reply), route).toEqual([]);
    }
  });
});
