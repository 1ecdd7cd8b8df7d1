/**
 * The lists of document types the guides and the README show, against the registry: every type
 * in each guide's table (with its extracted schema) and linked to its page, every rule check and
 * reason where the guides list them, every rejection reason in the backoffice's guide, and every
 * schema and rule check in the README's pipeline.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOCUMENT_REGISTRY } from "#shared/domain/document-registry";
import { rulesOf } from "#shared/domain/document-types";
import { REJECTION_CODES } from "#shared/domain/review";

const ROOT = path.resolve(__dirname, "../..");
const text = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe.each([
  ["docs/integration-guide.md", "document-types/"],
  ["docs/tr/integration-guide.md", "../document-types/"],
])("%s", (file, pages) => {
  const guide = text(file);

  it("has a table row for every registry type, with its schema, and a link to its page", () => {
    const rows = guide.split("\n").filter((line) => /^\| `[A-Z_]+` \|/.test(line));
    expect(rows.map((row) => /^\| `([A-Z_]+)`/.exec(row)?.[1])).toEqual(DOCUMENT_REGISTRY.map((entry) => entry.code));
    for (const entry of DOCUMENT_REGISTRY) {
      expect(rows.find((row) => row.startsWith(`| \`${entry.code}\``))).toContain(`\`${entry.layout.schema}\``);
      expect(guide).toContain(`[\`${entry.code}\`](${pages}${entry.code}.md)`);
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
  const readme = text("README.md");

  it("names every extracted schema and every rule check in the pipeline", () => {
    for (const entry of DOCUMENT_REGISTRY) expect(readme).toContain(`\`${entry.layout.schema}\``);
    for (const rule of rulesOf(DOCUMENT_REGISTRY)) expect(readme).toContain(`\`${rule.check}\``);
  });
});
