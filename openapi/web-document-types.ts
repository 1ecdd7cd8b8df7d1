/**
 * What the pages need of the document-type registry, which they may not import: the type codes,
 * the rule checks and rule reasons, the extracted fields, and their labels in both languages.
 * `npm run openapi` writes it to `web/common/document-types.ts`; a test fails when the committed
 * file differs from a fresh rendering.
 */
import { pageWords, type Registry } from "#shared/domain/document-registry";
import { rulesOf, typeCodes } from "#shared/domain/document-types";
import { formatted } from "./parts.ts";

export const WEB_DOCUMENT_TYPES = "web/common/document-types.ts";

const literal = (value: unknown) => JSON.stringify(value, null, 2);

function schemaFields(registry: Registry): Record<string, string[]> {
  return Object.fromEntries(registry.map((entry) => [entry.layout.schema, Object.keys(entry.layout.fieldLabels)]));
}

/** The module's source for `registry`, formatted by the project's formatter. */
export function renderWebDocumentTypes(registry: Registry): string {
  return formatted(unformatted(registry), WEB_DOCUMENT_TYPES);
}

function unformatted(registry: Registry): string {
  const rules = rulesOf(registry);
  const words = pageWords(registry);
  const list = (values: string[]) => literal(values);
  return [
    "/**",
    " * The document types, their rule checks and rule reasons, their extracted fields, and their",
    " * labels in both languages, generated from shared/domain/document-registry.ts by",
    " * `npm run openapi`. Do not edit.",
    " */",
    "",
    "/** The document types, in the registry's order. */",
    `export const DOCUMENT_TYPE_CODES = ${list(typeCodes(registry))} as const;`,
    "",
    "/** The checks the types' rules add. */",
    `export const RULE_CHECKS = ${list(rules.map((rule) => rule.check))} as const;`,
    "",
    "/** The reasons the types' rules reject with. */",
    `export const RULE_REASONS = ${list(rules.map((rule) => rule.reasonCode))} as const;`,
    "",
    "/** Each type's name, by its code. */",
    `export const TYPE_WORDS = ${literal(words.types)} as const;`,
    "",
    "/** Each rule check's label, by its name. */",
    `export const RULE_CHECK_WORDS = ${literal(words.checks)} as const;`,
    "",
    "/** Each rule reason's label, by its code. */",
    `export const RULE_REASON_WORDS = ${literal(words.reasons)} as const;`,
    "",
    "/** Each rule check's detail when the rule is met (`rule_met`), by the check's name. */",
    `export const RULE_MET_WORDS = ${literal(words.ruleMet)} as const;`,
    "",
    "/** Each rule check's detail when the rule is not met (`rule_not_met`), by the check's name. */",
    `export const RULE_NOT_MET_WORDS = ${literal(words.ruleNotMet)} as const;`,
    "",
    "/** Each schema's fields, in the order the pages show them (its layout's labels' order). */",
    `export const SCHEMA_FIELDS = ${literal(schemaFields(registry))} as const;`,
    "",
    "/** Each extracted field's label, by its name. */",
    `export const FIELD_WORDS = ${literal(words.fields)} as const;`,
    "",
    "",
  ].join("\n");
}
