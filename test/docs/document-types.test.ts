/**
 * Each document type's page in docs/document-types/ against the registry and the published
 * test documents: every extracted field with whether it is required, and every test file of
 * the type with the outcome it has in the sandbox.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DOCUMENT_LAYOUTS } from "#shared/domain/document-layouts";
import { DOCUMENT_TYPE_CODES } from "#shared/domain/document-types";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";

const page = (code: string) => readFileSync(path.resolve(__dirname, `../../docs/document-types/${code}.md`), "utf8");

describe.each(DOCUMENT_TYPE_CODES)("docs/document-types/%s.md", (code) => {
  const layout = DOCUMENT_LAYOUTS[code];
  const text = page(code);

  it("names the extracted schema and lists every field, marking exactly the required ones", () => {
    expect(text).toContain(`\`${layout.schema}\``);
    const schema = z.toJSONSchema(layout.fieldsSchema) as { properties: Record<string, { description?: string }> };
    const rows = new Map(
      [...text.matchAll(/^\| `([a-z_]+)` \| [^|]+ \| [^|]+ \|\s*(yes)?\s*\|$/gm)].map((row) => [
        row[1],
        row[2] === "yes",
      ]),
    );
    expect([...rows.keys()].sort()).toEqual(Object.keys(schema.properties).sort());
    for (const [field, property] of Object.entries(schema.properties)) {
      expect(rows.get(field), field).toBe(/\bRequired\b/.test(property.description ?? ""));
    }
  });

  it("lists every published test document of the type with the outcome the sandbox gives it", () => {
    for (const entry of CATALOGUE.filter((candidate) => candidate.documentType === code)) {
      const { status, result, reason_code } = entry.expected;
      const outcome = `\`${status}\` / ${result ? `\`${result}\`` : "-"} / \`${reason_code}\``;
      const row = text
        .split("\n")
        .find((line) => line.includes(`(../test-documents/${entry.file})`) && line.includes(outcome));
      expect(row, `${entry.file}: ${outcome}`).toBeDefined();
    }
  });
});
