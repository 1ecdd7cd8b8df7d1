/**
 * The portal API's OpenAPI document: committed as generated, complete for every route of its
 * table and only those, bearer-protected except the page's files, each operation naming the
 * roles that may call it, and every example valid against the schemas the handlers use.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PORTAL_GATEWAY_RESPONSES } from "#shared/declarations/gateway-responses";
import { PORTAL_ROUTES } from "#shared/declarations/portal-api";
import type { Json } from "../../openapi/parts.ts";
import { buildPortalDocument, renderPortalDocument } from "../../openapi/portal.ts";
import { namedCodes } from "./codes.ts";
import { Conformance } from "./conformance.ts";

const root = path.resolve(__dirname, "../..");
const document = buildPortalDocument();
type Operation = { security?: unknown[]; description: string; responses: Record<string, Json> };
const paths = document.paths as Record<string, Record<string, Operation>>;

describe("openapi-portal.json", () => {
  it("is committed exactly as `npm run openapi` generates it", () => {
    const committed = readFileSync(path.join(root, "openapi-portal.json"), "utf8");
    expect(committed === renderPortalDocument(), "openapi-portal.json is stale: run `npm run openapi`").toBe(true);
    expect(JSON.parse(committed)).toEqual(document);
  });

  it("describes each portal route, and only those, with the roles that may call it", () => {
    const documented = Object.entries(paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(
      PORTAL_ROUTES.map((route) => `${route.method.toLowerCase()} ${route.path}`).sort(),
    );
    expect(document.security).toEqual([{ PortalToken: [] }]);
    for (const route of PORTAL_ROUTES) {
      const operation = paths[route.path]?.[route.method.toLowerCase()] as Operation;
      if (!("groups" in route)) {
        expect(operation.security).toEqual([]);
        continue;
      }
      expect(operation.security).toBeUndefined();
      // The owner may do everything; a viewer only what is read.
      expect(operation.description).toContain("`owner`");
      expect(operation.description.includes("`viewer`")).toBe(
        route.method === "GET" && !route.path.startsWith("/portal/v1/users"),
      );
    }
  });

  it("lists the gateway's own answers and 404 for another organisation's resources", () => {
    const named = namedCodes(document);
    for (const response of Object.values(PORTAL_GATEWAY_RESPONSES)) expect(named).toContain(response.code);
    for (const route of PORTAL_ROUTES.filter((candidate) => "groups" in candidate)) {
      const responses = paths[route.path]?.[route.method.toLowerCase()]?.responses ?? {};
      for (const status of ["401", "403", "429", "500", "503"])
        expect(Object.keys(responses), route.path).toContain(status);
      if (/\{(app_id|key_id|event_id|verification_id)\}/.test(route.path)) {
        expect(Object.keys(responses), route.path).toContain("404");
      }
    }
  });

  it("has examples the document's own schemas accept", () => {
    const conformance = new Conformance(document);
    const headers = new Headers({ "content-type": "application/json", "request-id": "r-1" });
    let checked = 0;
    for (const [route, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const example = (response as { content?: Record<string, { example?: unknown }> }).content?.[
            "application/json"
          ]?.example;
          if (example === undefined) continue;
          const concrete = route
            .replace("{app_id}", "app_01JDQ8Y2K3M4N5P6Q7R8S9T0V1")
            .replace("{event_id}", "evt_01JDQ8ZC4M5N6P7Q8R9S0T1V2W");
          const reply = {
            method: method.toUpperCase(),
            path: concrete,
            status: Number(status),
            headers,
            text: JSON.stringify(example),
          };
          expect(conformance.problems(reply), `${method} ${route}`).toEqual([]);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});
