/** The problem codes an OpenAPI document's responses name, for the document tests. */
import { expect } from "vitest";
import { PROBLEMS } from "#shared/http/problems";
import type { Json } from "../../openapi/parts.ts";

/** The `code` values a problem response of `source` allows, its `$ref` followed. */
export function codesOf(response: Json, source: Json): string[] {
  const shared = (source.components as Record<string, Record<string, Json>>).responses?.RouteNotFound as Json;
  const resolved = typeof response.$ref === "string" ? shared : response;
  const content = resolved.content as Record<string, { schema: { allOf: Json[] } }>;
  const limits = content["application/problem+json"]?.schema.allOf[1] as { properties: { code: { enum: string[] } } };
  return limits.properties.code.enum;
}

/** Every problem code the operations of `source` answer, each checked to be under its own status. */
export function namedCodes(source: Json): string[] {
  const named = new Set<string>();
  const operations = source.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
  for (const item of Object.values(operations)) {
    for (const { responses } of Object.values(item)) {
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        for (const code of codesOf(response, source)) {
          expect(PROBLEMS[code as keyof typeof PROBLEMS].status, code).toBe(Number(status));
          named.add(code);
        }
      }
    }
  }
  // The 405 of a declared path's other methods is a shared response no operation lists.
  const methodNotAllowed = (source.components as Record<string, Record<string, Json>>).responses?.MethodNotAllowed;
  for (const code of methodNotAllowed ? codesOf(methodNotAllowed, source) : []) named.add(code);
  return [...named];
}
