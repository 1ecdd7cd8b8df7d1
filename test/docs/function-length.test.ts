/**
 * No function of the project's own source is over a screen: every function, method, constructor
 * and arrow function in every TypeScript file of the repository (tests, scripts, the bench and
 * the pages included; `node_modules` and what git ignores left out) spans at most
 * `MAX_FUNCTION_LINES` lines (`test/support/function-length.ts` says how they are read and
 * measured). Tests are source too; only a `describe` callback is not measured, being a list of
 * cases that each count on their own. The files `npm run openapi` writes are left out, by the
 * names its writer gives them (`scripts/write-openapi.ts`: the pages' and the functions'
 * document-type modules, the pages' wire types, and the client's `schema.ts` from its
 * `generate` script).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PAGE_TYPES } from "../../openapi/page-types.ts";
import { TYPE_FACTS_MODULE } from "../../openapi/type-facts.ts";
import { WEB_CHECK_DETAILS } from "../../openapi/web-check-details.ts";
import { WEB_DOCUMENT_TYPES } from "../../openapi/web-document-types.ts";
import { longFunctions, type Offender } from "../support/function-length.ts";

const ROOT = path.resolve(__dirname, "../..");

/** A screen: no function of the project's own is longer. */
const MAX_FUNCTION_LINES = 100;

/** The client's generated types: the `-o` of its `generate` script (`npm run openapi` runs it). */
function clientSchema(): string {
  const client = "clients/typescript";
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, client, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const output = / -o (\S+)/.exec(scripts.generate ?? "")?.[1];
  if (!output) throw new Error(`${client}/package.json's generate script names no output`);
  return path.posix.join(client, output);
}

/** What `npm run openapi` writes, relative to the root. */
function generatedFiles(): Set<string> {
  return new Set([
    WEB_DOCUMENT_TYPES,
    WEB_CHECK_DETAILS,
    TYPE_FACTS_MODULE,
    ...PAGE_TYPES.map(({ types }) => types),
    clientSchema(),
  ]);
}

/** Every TypeScript file of the repository that is not generated, relative to the root. */
function sourceFiles(): string[] {
  const generated = generatedFiles();
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.mts", "*.cts"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "" && !generated.has(file) && !file.split("/").includes("node_modules"));
}

const described = (offender: Offender) => `${offender.file}:${offender.line} ${offender.name}: ${offender.lines} lines`;

/** `count` lines of a function's body. */
const bodyLines = (count: number) => Array.from({ length: count }, (_, i) => `  const line${i} = ${i};`).join("\n");

describe("the function-length rule", () => {
  it("names a function over the limit with its file, line and length, and passes one at it", () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "function-length-probe-"));
    try {
      writeFileSync(
        path.join(folder, "probe.ts"),
        [
          "/** At the limit. */",
          `export function atTheLimit(): void {\n${bodyLines(MAX_FUNCTION_LINES - 2)}\n}`,
          `export const overTheLimit = () => {\n${bodyLines(MAX_FUNCTION_LINES - 1)}\n};`,
          `describe("a suite", () => {\n${bodyLines(MAX_FUNCTION_LINES)}\n  it("a case", () => {\n${bodyLines(MAX_FUNCTION_LINES)}\n  });\n});`,
          `class Probe {\n  constructor() {\n${bodyLines(MAX_FUNCTION_LINES)}\n  }\n}`,
          "",
        ].join("\n"),
      );
      expect(longFunctions(folder, ["probe.ts"], MAX_FUNCTION_LINES).map(described)).toEqual([
        `probe.ts:${MAX_FUNCTION_LINES + 2} overTheLimit: ${MAX_FUNCTION_LINES + 1} lines`,
        `probe.ts:${3 * MAX_FUNCTION_LINES + 4} it("a case") callback: ${MAX_FUNCTION_LINES + 2} lines`,
        `probe.ts:${4 * MAX_FUNCTION_LINES + 8} Probe constructor: ${MAX_FUNCTION_LINES + 2} lines`,
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it("leaves out only files that say they are generated", () => {
    const generated = [...generatedFiles()];
    expect(generated.length).toBeGreaterThan(0);
    for (const file of generated) {
      const header = readFileSync(path.join(ROOT, file), "utf8").slice(0, 400);
      expect(/auto-generated|Do not edit/.test(header), `${file} does not say it is generated`).toBe(true);
    }
    const files = sourceFiles();
    expect(files.filter((file) => generatedFiles().has(file))).toEqual([]);
    expect(files).toContain("scripts/write-openapi.ts");
  });
});

describe("every function of the project's own", () => {
  it(`spans at most ${MAX_FUNCTION_LINES} lines`, () => {
    const offenders = longFunctions(ROOT, sourceFiles(), MAX_FUNCTION_LINES).map(described);
    expect(offenders).toEqual([]);
  }, 120_000);
});
