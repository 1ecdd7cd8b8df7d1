/**
 * The Turkish pages (docs/tr/) are the English ones translated, kept in step: the same pages,
 * the same headings at the same levels in the same order (numbers and code in them unchanged),
 * the same code blocks byte for byte, the same tables' shapes, and links that resolve.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DOCS = path.resolve(__dirname, "../../docs");
const TURKISH = path.join(DOCS, "tr");
const PAGES = readdirSync(TURKISH).filter((name) => name.endsWith(".md"));

/** Each heading's level, and what a translation keeps of it: its numbering and its code. */
function headings(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  return [...prose.matchAll(/^(#{1,6}) (.*)$/gm)].map(([, hashes, text]) => {
    const kept = [...(text ?? "").matchAll(/^\d+\.|`[^`]+`/g)].map(([token]) => token);
    return [hashes, ...kept].join(" ");
  });
}

const codeBlocks = (markdown: string) => [...markdown.matchAll(/^```[a-z]*\n[\s\S]*?^```$/gm)].map(([block]) => block);

/** Each table's column count and row count, in order. */
function tables(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  return [...prose.matchAll(/(?:^\|.*\|\n)+/gm)].map(([table]) => {
    const rows = table.trim().split("\n");
    return `${(rows[0]?.match(/\|/g)?.length ?? 0) - 1} columns, ${rows.length} rows`;
  });
}

describe("docs/tr", () => {
  it("translates the integration guide and the webhooks page", () => {
    expect(PAGES.sort()).toEqual(["integration-guide.md", "webhooks.md"]);
  });

  for (const page of PAGES) {
    const english = readFileSync(path.join(DOCS, page), "utf8");
    const turkish = readFileSync(path.join(TURKISH, page), "utf8");

    it(`${page}: the same headings, code blocks and tables as the English page`, () => {
      expect(headings(turkish)).toEqual(headings(english));
      expect(codeBlocks(turkish)).toEqual(codeBlocks(english));
      expect(tables(turkish)).toEqual(tables(english));
      // It reads as Turkish, and names the page it translates.
      expect(turkish).toMatch(/[çğıöşü]/);
      expect(turkish).toContain(`](../${page})`);
    });

    it(`${page}: every relative link resolves`, () => {
      const links = [...turkish.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)]
        .map(([, target]) => target ?? "")
        .filter((target) => !/^[a-z]+:/.test(target));
      expect(links.length).toBeGreaterThan(0);
      for (const target of links) expect(existsSync(path.join(TURKISH, target)), target).toBe(true);
    });
  }
});
