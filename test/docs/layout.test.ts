/**
 * The README's Layout table and the import rules in biome.json say the same thing: every
 * top-level folder has a row, every rule's message is its row's "may import" words, every row
 * that names imports has a rule, and a deliberate bad import in each folder fails the lint
 * while a good one passes.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const run = promisify(execFile);

interface Row {
  paths: string[];
  mayImport: string;
}

/** The Layout table's rows: the paths of the first cell and the "may import" cell. */
function layoutRows(): Row[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Layout"), readme.indexOf("\n## ", readme.indexOf("## Layout") + 1));
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim());
      const paths = [...(cells[0] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
      return { paths, mayImport: cells[2] ?? "" };
    });
}

interface Rule {
  includes: string[];
  message: string;
}

/** Every import rule in biome.json, with the files it covers. */
function importRules(): Rule[] {
  const config = JSON.parse(readFileSync(path.join(ROOT, "biome.json"), "utf8")) as {
    overrides: {
      includes: string[];
      linter?: { rules?: { style?: { noRestrictedImports?: { options: { patterns: { message: string }[] } } } } };
    }[];
  };
  return config.overrides.flatMap((override) =>
    (override.linter?.rules?.style?.noRestrictedImports?.options.patterns ?? []).map((pattern) => ({
      includes: override.includes,
      message: pattern.message,
    })),
  );
}

/** What a row's rule says: its first path and its "may import" words. */
const messageOf = (row: Row) => `\`${row.paths[0]}\` may import ${row.mayImport}. See Layout in the README.`;

const rows = layoutRows();
const rules = importRules();

describe("the Layout table and biome.json", () => {
  it("has a row for every top-level folder", () => {
    const folders = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      // Installed, generated or kept by the tools, not the project's own.
      .filter((name) => !["node_modules", ".git", ".local", "cdk.out", "test-results"].includes(name));
    const covered = rows.flatMap((row) => row.paths);
    for (const folder of folders) {
      expect(
        covered.some((covering) => covering === `${folder}/` || covering.startsWith(`${folder}/`)),
        `${folder}/ has no row`,
      ).toBe(true);
    }
  });

  it("gives every rule its row's words, and every row that names imports a rule", () => {
    const messages = new Set(rows.filter((row) => row.mayImport !== "").map(messageOf));
    for (const rule of rules) {
      expect(messages.has(rule.message), `${rule.includes.join(", ")}: ${rule.message}`).toBe(true);
    }
    for (const message of messages) {
      expect(
        rules.some((rule) => rule.message === message),
        `no rule says ${message}`,
      ).toBe(true);
    }
  });

  it("covers with each rule only files under its row's paths", () => {
    for (const rule of rules) {
      const row = rows.find((candidate) => messageOf(candidate) === rule.message);
      for (const include of rule.includes) {
        const base = include.replace(/\*.*$/, "");
        expect(
          row?.paths.some((covering) => base.startsWith(covering.replace(/[^/]*$/, "")) || covering.startsWith(base)),
          `${include} is not under ${row?.paths.join(", ")}`,
        ).toBe(true);
      }
    }
  });
});

/** An import from a file at `at`, and whether the layout allows it. */
const PROBES: { at: string; from: string; allowed: boolean }[] = [
  { at: "ops/", from: "../local/engines.ts", allowed: false },
  { at: "ops/", from: "#shared/adapters/system-clock", allowed: false },
  { at: "ops/", from: "#shared/wiring/config", allowed: true },
  { at: "ops/", from: "./target.ts", allowed: true },
  { at: "ops/commands/", from: "../../local/kms.ts", allowed: false },
  { at: "ops/commands/", from: "../program.ts", allowed: true },
  { at: "local/", from: "../ops/target.ts", allowed: false },
  { at: "local/", from: "../openapi/document.ts", allowed: false },
  { at: "local/", from: "#shared/adapters/system-clock", allowed: false },
  { at: "local/", from: "../openapi/reference.ts", allowed: true },
  { at: "local/", from: "../web/build.ts", allowed: true },
  { at: "local/", from: "#shared/wiring/config", allowed: true },
  { at: "local/gateway/", from: "../../ops/target.ts", allowed: false },
  { at: "local/gateway/", from: "../engines.ts", allowed: true },
  { at: "infra/", from: "../local/engines.ts", allowed: false },
  { at: "infra/", from: "#shared/wiring/config", allowed: false },
  { at: "infra/", from: "#shared/use-cases/public/get-verification", allowed: false },
  { at: "infra/", from: "#shared/adapters/system-clock", allowed: false },
  { at: "infra/", from: "#shared/adapters/documents/reader", allowed: true },
  { at: "infra/", from: "#shared/declarations/functions", allowed: true },
  { at: "openapi/", from: "#shared/use-cases/review/document", allowed: false },
  { at: "openapi/", from: "#shared/domain/review", allowed: true },
  { at: "scripts/", from: "#shared/adapters/system-clock", allowed: false },
  { at: "scripts/", from: "../local/engines.ts", allowed: false },
  { at: "scripts/", from: "#shared/domain/state", allowed: true },
  { at: "scripts/", from: "../openapi/document.ts", allowed: true },
  { at: "functions/", from: "#shared/adapters/system-clock", allowed: false },
  { at: "functions/", from: "#shared/wiring/config", allowed: true },
  { at: "functions/", from: "#shared/simulator/simulator", allowed: true },
  { at: "shared/simulator/", from: "../adapters/system-clock.ts", allowed: false },
  { at: "shared/simulator/", from: "../use-cases/issuer/simulated-holding.ts", allowed: false },
  { at: "shared/simulator/", from: "../domain/edevlet.ts", allowed: true },
  { at: "shared/simulator/", from: "../http/web-assets.ts", allowed: true },
  { at: "shared/wiring/stores/", from: "../../use-cases/public/get-verification.ts", allowed: false },
  { at: "shared/wiring/stores/", from: "../../adapters/system-clock.ts", allowed: true },
  { at: "shared/use-cases/public/", from: "../../adapters/system-clock.ts", allowed: false },
  { at: "shared/use-cases/public/", from: "../processing/process-verification.ts", allowed: true },
  { at: "shared/adapters/", from: "../wiring/config.ts", allowed: false },
  { at: "web/portal/", from: "#shared/domain/state", allowed: false },
  { at: "web/portal/", from: "../common/dom.ts", allowed: true },
  { at: "test/", from: "../bench/stats.ts", allowed: false },
  { at: "test/", from: "../shared/domain/state.ts", allowed: false },
  { at: "bench/", from: "../ops/target.ts", allowed: false },
  { at: "bench/", from: "../local/engines.ts", allowed: true },
];

const written: string[] = [];
afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe("npm run lint", () => {
  it("fails a deliberate bad import in each folder with its row's words, and passes a good one", async () => {
    const files = PROBES.map((probe, i) => {
      const file = path.join(probe.at, `layout-probe-${process.pid}-${i}.ts`);
      written.push(path.join(ROOT, file));
      writeFileSync(path.join(ROOT, file), `import { probe } from "${probe.from}";\n\nexport const used = probe;\n`);
      return file;
    });
    const lint = await run("npx", ["biome", "lint", "--reporter=json", ...files], { cwd: ROOT }).catch(
      (error: { stdout: string }) => error,
    );
    const report = JSON.parse(lint.stdout) as {
      diagnostics: { category: string; message: string; location: { path: string } }[];
    };
    PROBES.forEach((probe, i) => {
      const refusals = report.diagnostics.filter(
        (diagnostic) =>
          diagnostic.category === "lint/style/noRestrictedImports" && diagnostic.location.path === files[i],
      );
      expect(refusals.length, `${probe.at} importing ${probe.from}`).toBe(probe.allowed ? 0 : 1);
      if (!probe.allowed) {
        const row = rows.find((candidate) => messageOf(candidate) === refusals[0]?.message);
        expect(
          row?.paths.some((covering) => probe.at.startsWith(covering)),
          refusals[0]?.message,
        ).toBe(true);
      }
    });
  });
});
