/**
 * What each function's bundle holds, built as the stack builds it (`infra/esbuild-options.ts`):
 * only the project files its handler reaches. The APIs' answers as wire schemas
 * (`shared/domain/responses/`) are for the documents and the tests, and no function builds
 * them; nor does a function carry what only the stack, the local runtime or the ops command use.
 */
import path from "node:path";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { FUNCTIONS, type FunctionName } from "#shared/declarations/functions";
import { PROJECT_ROOT } from "../../infra/bundling.ts";
import { esbuildOptions } from "../../infra/esbuild-options.ts";

const NAMES = Object.keys(FUNCTIONS) as FunctionName[];

/** Each function's project files (outside node_modules), by its name. */
const projectFiles = new Map<FunctionName, string[]>();

beforeAll(async () => {
  const { metafile } = await build({
    ...esbuildOptions(),
    entryPoints: Object.fromEntries(NAMES.map((name) => [name, path.join(PROJECT_ROOT, FUNCTIONS[name].entry)])),
    outdir: path.join(PROJECT_ROOT, ".local", "function-bundles"),
    write: false,
    sourcemap: false,
    metafile: true,
  });
  for (const [output, { entryPoint, inputs }] of Object.entries(metafile.outputs)) {
    if (!entryPoint) continue;
    const name = path.basename(output, ".js") as FunctionName;
    projectFiles.set(
      name,
      Object.keys(inputs).filter((input) => !input.includes("node_modules/")),
    );
  }
}, 120_000);

describe("each function's bundle", () => {
  it.each(NAMES)("%s holds no response schema and nothing from outside shared/ and functions/", (name) => {
    const files = projectFiles.get(name) ?? [];
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => file.startsWith("shared/domain/responses/"))).toEqual([]);
    expect(files.filter((file) => !file.startsWith("shared/") && !file.startsWith("functions/"))).toEqual([]);
  });

  // 33 since the verifications store writes a reviewer's change and its audit record in one
  // transaction (shared/adapters/dynamodb-writes.ts); the audit trail itself stays out. 36 since
  // every public route keeps its refused requests in the request log the portal looks request ids
  // up in (its rule, shared/domain/requests.ts; its adapter; its wiring). 38 since a document
  // type is one registry entry: the resource's reason messages come from the registry's facts
  // (shared/domain/type-facts.ts, written from it without the layouts) and the type lists that
  // derive them (shared/domain/document-types.ts); no layout and no reader.
  it("get-verification, the route every integration polls, holds at most 38 project files, none of them a layout", () => {
    const files = projectFiles.get("get-verification") ?? [];
    expect(files.length).toBeLessThanOrEqual(38);
    expect(files.filter((file) => file.includes("certificates/") || file.endsWith("document-registry.ts"))).toEqual([]);
  });

  // 20 since it carries its own declaration (its settings and its header) rather than every
  // function's settings and every API's routes.
  it("the authorizer, in front of every public request, holds at most 20 project files", () => {
    expect((projectFiles.get("authorizer") ?? []).length).toBeLessThanOrEqual(20);
  });

  // The files each bundle may hold, kept in this file's snapshot: a file that joins a bundle fails
  // here by its name, and is let in only on purpose (`npx vitest run -u` on this file, reviewed).
  it.each(NAMES)("%s holds only the project files it is allowed", (name) => {
    expect([...(projectFiles.get(name) ?? [])].sort()).toMatchSnapshot();
  });

  it("carries the document-type registry and its layouts only where a document is read", () => {
    const readers = NAMES.filter((name) => projectFiles.get(name)?.includes("shared/domain/document-registry.ts"));
    expect(readers.sort()).toEqual(["ask-issuer", "confirm-upload", "on-verification-change"]);
  });
});
