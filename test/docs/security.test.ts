/** The threat model names real tests: each row's proof is a test file that exists, or the row says it is open. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const model = readFileSync(path.join(root, "docs/security.md"), "utf8");
const rows = model
  .split("\n")
  .filter((line) => line.startsWith("| ") && !line.startsWith("| threat") && !line.startsWith("|---"));

describe("docs/security.md", () => {
  it("proves every closed threat with a test file that exists, and says which are open", () => {
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const cells = row.split(" | ");
      const proof = cells.at(-1) ?? "";
      const files = [...proof.matchAll(/`((?:test|docs)\/[^`]+)`/g)].map((match) => match[1] ?? "");
      if (row.includes("**Open:**")) {
        expect(proof.trim(), row).toBe("— |");
        continue;
      }
      expect(files.length, row).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(path.join(root, file)), file).toBe(true);
    }
  });
});
