/**
 * What the pages' dictionary tests (test/backoffice/text.test.ts, test/portal/text.test.ts) check
 * alike: two dictionaries in step, and the check names processing records, read from its source.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { DOCUMENT_REGISTRY } from "#shared/domain/document-registry";
import { rulesOf } from "#shared/domain/document-types";

const ROOT = path.resolve(__dirname, "../..");

const placeholders = (text: string) => [...text.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => name).sort();

/** The same keys, no empty value, the same placeholders in each language. */
export function expectInStep(dictionaries: { en: Record<string, string>; tr: Record<string, string> }): void {
  expect(Object.keys(dictionaries.tr).sort()).toEqual(Object.keys(dictionaries.en).sort());
  for (const [language, dictionary] of Object.entries(dictionaries)) {
    for (const [key, value] of Object.entries(dictionary)) {
      expect(value.trim(), `${language} ${key}`).not.toBe("");
    }
  }
  for (const key of Object.keys(dictionaries.en)) {
    expect(placeholders(dictionaries.tr[key] ?? ""), key).toEqual(placeholders(dictionaries.en[key] ?? ""));
  }
}

/**
 * The check names processing records, read from its source, and each document type's rule
 * check: a new check without a label fails where this is used.
 */
export function checkNames(): string[] {
  const folder = path.join(ROOT, "shared/use-cases/processing");
  const names = new Set<string>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(path.join(folder, file), "utf8");
    for (const [, stepped, listed] of source.matchAll(
      /steps\.(?:pass|fail|skip)\("([a-z_]+)"|name: "([a-z_]+)", outcome/g,
    )) {
      names.add(stepped ?? listed ?? "");
    }
  }
  for (const rule of rulesOf(DOCUMENT_REGISTRY)) names.add(rule.check);
  return [...names].sort();
}

/** One test per group of codes: each code labelled (`<group>.<code>`) in both languages. */
export function labelsEveryCode(
  dictionaries: { en: Record<string, string>; tr: Record<string, string> },
  groups: readonly [string, readonly string[]][],
): void {
  for (const [group, codes] of groups) {
    it(`label every ${group} code in both languages`, () => {
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) {
        expect(dictionaries.en, `${group}.${code}`).toHaveProperty([`${group}.${code}`]);
        expect(dictionaries.tr, `${group}.${code}`).toHaveProperty([`${group}.${code}`]);
      }
    });
  }
}
