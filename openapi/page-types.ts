/**
 * The browser pages' wire types, generated from their API's document by the generator and the
 * options that make the TypeScript client's types from `openapi.json` (the client's `generate`
 * script), so a page reads and sends what its document describes and nothing else.
 * `npm run openapi` writes them beside each page; a test fails when a committed one differs from
 * a fresh generation.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
/** The workspace that holds the generator, beside the TypeScript 5 whose compiler API it needs. */
const CLIENT = path.join(ROOT, "clients/typescript");

/** Each page's document and the types generated from it, relative to the project root. */
export const PAGE_TYPES = [
  { document: "openapi-backoffice.json", types: "web/backoffice/schema.ts" },
  { document: "openapi-portal.json", types: "web/portal/schema.ts" },
] as const;

/** The options of the client's `generate` script: what stands between its document and `-o <file>`. */
function clientOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(CLIENT, "package.json"), "utf8")) as {
    scripts: { generate: string };
  };
  const [command, _document, ...rest] = scripts.generate.split(" ");
  if (command !== "openapi-typescript" || rest.at(-2) !== "-o") {
    throw new Error(
      `The client's generate script is not "openapi-typescript <document> … -o <file>": ${scripts.generate}`,
    );
  }
  return rest.slice(0, -2);
}

/** Writes the types of `document` to `output`, each relative to the project root or absolute. */
export function generatePageTypes(document: string, output: string): void {
  execFileSync(
    path.join(CLIENT, "node_modules/.bin/openapi-typescript"),
    [path.resolve(ROOT, document), ...clientOptions(), "-o", path.resolve(ROOT, output)],
    // Run where the client's own script runs, so the generator finds the same configuration.
    { cwd: CLIENT, stdio: "pipe" },
  );
}
