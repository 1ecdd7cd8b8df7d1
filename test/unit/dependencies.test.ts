/**
 * What the deployed functions may import is what `dependencies` lists, and nothing the stack,
 * the ops command or the local runtime needs is listed there: those are development tools.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => path.join(root, folder, file));
}

/** The package an import specifier names: `@scope/name/sub` is `@scope/name`. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("#") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function importedPackages(files: string[]): Set<string> {
  const found = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const statics = text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms);
    const dynamics = text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g);
    for (const match of [...statics, ...dynamics]) {
      const name = packageOf(match[1] ?? "");
      if (name) found.add(name);
    }
  }
  return found;
}

describe("package.json", () => {
  it("lists every package the functions and their shared code import as a dependency", () => {
    const imported = importedPackages([...sources("functions"), ...sources("shared")]);
    // Types only, erased at build.
    imported.delete("aws-lambda");
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !(name in manifest.dependencies))).toEqual([]);
  });

  it("keeps the stack, the command line and the local runtime's own packages out of the runtime dependencies", () => {
    for (const name of [
      "aws-cdk-lib",
      "constructs",
      "aws-cdk",
      "commander",
      "@aws-sdk/client-cloudformation",
      "@aws-sdk/client-dynamodb-streams",
    ]) {
      expect(manifest.dependencies, name).not.toHaveProperty(name);
      expect(manifest.devDependencies, name).toHaveProperty(name);
    }
  });
});
