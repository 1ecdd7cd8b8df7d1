/**
 * The browser pages' wire types, generated from their API's document by the generator and the
 * options that make the TypeScript client's types from `openapi.json` (the client's `generate`
 * script), so a page reads and sends what its document describes and nothing else.
 * `npm run openapi` writes them beside each page; a test fails when a committed one differs from
 * a fresh generation.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
/** The workspace that holds the generator, beside the TypeScript 5 whose compiler API it needs. */
const CLIENT = path.join(ROOT, "clients/typescript");

/**
 * Each page's document, the types generated from it, and the value lists it offers: each list an
 * enum of the document (by its JSON pointer), written in the document's order into `values`.
 * The order a page shows a list in is declared beside its labels (each page's `order.ts`).
 */
export const PAGE_TYPES = [
  {
    document: "openapi-backoffice.json",
    types: "web/backoffice/schema.ts",
    values: "web/backoffice/values.ts",
    lists: {
      REJECTION_CODES: "/components/schemas/ReviewDecision/properties/reason_code",
      REVIEW_REASONS: "/components/schemas/ReviewEntry/properties/reason_code",
      AUDIT_ACTIONS: "/components/schemas/AuditRecord/properties/action",
    },
  },
  {
    document: "openapi-portal.json",
    types: "web/portal/schema.ts",
    values: "web/portal/values.ts",
    lists: {
      STATUSES: "/components/schemas/Verification/properties/status",
      EVENT_TYPES: "/components/schemas/AppEvent/properties/type",
      DELIVERY_OUTCOMES: "/components/schemas/Delivery/properties/outcome",
      DELIVERY_ERROR_CODES: "/components/schemas/Delivery/properties/error_code/anyOf/0",
      ROLES: "/components/schemas/Member/properties/role",
      STATUS_CLASSES: "/paths/~1portal~1v1~1apps~1{app_id}~1requests/get/parameters/1/schema",
    },
  },
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

/** What `pointer` (a JSON pointer, `/components/schemas/…`) names in `document`. */
function at(document: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>(
      (node, part) => (node !== null && typeof node === "object" ? Reflect.get(node, part) : undefined),
      document,
    );
}

/** One list as the page's code reads it: on one line when it fits, a value a line when not. */
function listLine(name: string, values: readonly string[]): string {
  const line = `export const ${name} = [${values.map((value) => JSON.stringify(value)).join(", ")}] as const;`;
  if (line.length <= 120) return line;
  return [`export const ${name} = [`, ...values.map((value) => `  ${JSON.stringify(value)},`), "] as const;"].join(
    "\n",
  );
}

/** The module of `lists` (a name and a pointer each) read from `document`, relative to the project root. */
export function renderPageValues(document: string, lists: Readonly<Record<string, string>>): string {
  const parsed: unknown = JSON.parse(readFileSync(path.resolve(ROOT, document), "utf8"));
  const parts = Object.entries(lists).map(([name, pointer]) => {
    const values = (at(parsed, pointer) as { enum?: unknown } | undefined)?.enum;
    if (!Array.isArray(values) || !values.every((value) => typeof value === "string")) {
      throw new Error(`${document} has no enum of strings at ${pointer} (for ${name})`);
    }
    return `/** \`${pointer}\` */\n${listLine(name, values)}\n`;
  });
  const header = [
    "/**",
    ` * The enums the page offers, in the document's order: generated from ${document} by`,
    " * `npm run openapi` (openapi/page-types.ts). The order the page shows each in is declared beside",
    " * its labels, in `order.ts`.",
    " */",
    "",
  ].join("\n");
  return [header, ...parts].join("\n");
}

/** Writes the value lists of `document` to `output`, each relative to the project root or absolute. */
export function writePageValues(document: string, lists: Readonly<Record<string, string>>, output: string): void {
  writeFileSync(path.resolve(ROOT, output), renderPageValues(document, lists));
}
