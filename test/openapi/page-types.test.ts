/**
 * The console's and the portal's wire types and value lists as committed: what the client's
 * generator makes from their documents now, and their enums now (`npm run openapi`), so a page
 * cannot read a shape its API no longer answers, nor offer a value it no longer takes.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePageTypes, PAGE_TYPES, renderPageValues } from "../../openapi/page-types.ts";

const root = path.resolve(__dirname, "../..");

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "page-types-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("the pages' generated wire types", () => {
  it.each(PAGE_TYPES)("$types holds what the generator makes from $document now", async ({ document, types }) => {
    const fresh = path.join(scratch, `${path.basename(path.dirname(types))}.ts`);
    generatePageTypes(document, fresh);
    const committed = await readFile(path.join(root, types), "utf8");
    expect(committed === (await readFile(fresh, "utf8")), `${types} is behind ${document}: run npm run openapi`).toBe(
      true,
    );
  });

  it.each(PAGE_TYPES)("$values holds the enums of $document now", async ({ document, lists, values }) => {
    const committed = await readFile(path.join(root, values), "utf8");
    expect(
      committed === renderPageValues(document, lists),
      `${values} is behind ${document}: run npm run openapi`,
    ).toBe(true);
  });
});
