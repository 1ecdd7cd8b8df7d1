/**
 * The lists of document types the guides show, against the registry: each section
 * `npm run openapi` writes (`openapi/docs-sections.ts`) is in its page as a fresh rendering makes
 * it, and what a reader looks for is in it: every type linked to its page with its schema, every
 * rule's check and reason, every rejection reason in the backoffice's guide. The README points
 * to the guide's table rather than copying it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOCUMENT_REGISTRY } from "#shared/domain/document-registry";
import { rulesOf } from "#shared/domain/document-types";
import { REJECTION_CODES } from "#shared/domain/review";
import { DOCS_SECTIONS, withSection } from "../../openapi/docs-sections.ts";

const ROOT = path.resolve(__dirname, "../..");
const text = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe.each(DOCS_SECTIONS.map((section) => [`${section.file}, ${section.name}`, section] as const))(
  "%s",
  (_, section) => {
    it("is in its page as a fresh rendering from the registry makes it", () => {
      const page = text(section.file);
      expect(page, `${section.file} is stale: npm run openapi`).toBe(withSection(page, section, DOCUMENT_REGISTRY));
    });
  },
);

describe.each([
  ["docs/integration-guide.md", "document-types/"],
  ["docs/tr/integration-guide.md", "../document-types/"],
])("%s", (file, pages) => {
  const guide = text(file);

  it("has a table row for every registry type, linked to its page, with its schema", () => {
    const rows = guide.split("\n").filter((line) => /^\| \[`[A-Z_]+`\]/.test(line));
    expect(rows.map((row) => /^\| \[`([A-Z_]+)`\]/.exec(row)?.[1])).toEqual(
      DOCUMENT_REGISTRY.map((entry) => entry.code),
    );
    for (const entry of DOCUMENT_REGISTRY) {
      const row = rows.find((line) => line.startsWith(`| [\`${entry.code}\`](${pages}${entry.code}.md)`));
      expect(row).toContain(`\`${entry.layout.schema}\``);
    }
  });

  it("names every type rule's check and reason", () => {
    for (const rule of rulesOf(DOCUMENT_REGISTRY)) {
      expect(guide).toContain(`\`${rule.check}\``);
      expect(guide).toContain(`\`${rule.reasonCode}\``);
    }
  });
});

describe("docs/backoffice.md", () => {
  it("offers every rejection reason a reviewer may choose", () => {
    const guide = text("docs/backoffice.md");
    for (const code of REJECTION_CODES) expect(guide).toContain(`\`${code}\``);
  });
});

describe("README.md", () => {
  it("points to the guide's table of types for the schemas and the rules", () => {
    expect(text("README.md")).toContain("(docs/integration-guide.md#document-types)");
  });
});

describe("a page whose markers are missing or doubled", () => {
  const [section] = DOCS_SECTIONS;
  it.each([
    ["missing", "# A page\n"],
    ["doubled", "<!-- registry: types-table -->\n<!-- registry: types-table -->\n<!-- /registry: types-table -->\n"],
  ])("is refused when %s, rather than losing or doubling the section", (_, page) => {
    if (!section) throw new Error("no section declared");
    expect(() => withSection(page, section, DOCUMENT_REGISTRY)).toThrow(/once each/);
  });
});
