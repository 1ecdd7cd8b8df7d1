/**
 * What the functions that never read a document need of the document-type registry: each type's
 * code, accepted files, size cap and extracted schema, and its rule's check, reason
 * and sentences. The registry's entries also hold each type's layout, and with it the reader
 * every layout shares; a route that answers with a reason's message or checks a file's
 * extension would carry them all. `npm run openapi` writes it to `shared/domain/type-facts.ts`;
 * a test fails when the committed file differs from a fresh rendering.
 */
import type { Registry } from "#shared/domain/document-registry";
import { formatted } from "./parts.ts";

export const TYPE_FACTS_MODULE = "shared/domain/type-facts.ts";

/** The module's source for `registry`, formatted by the project's formatter. */
export function renderTypeFacts(registry: Registry): string {
  const facts = registry.map((entry) => ({
    code: entry.code,
    fileTypes: entry.fileTypes,
    maxFileSizeBytes: entry.maxFileSizeBytes,
    schema: entry.layout.schema,
    rule:
      entry.rule === null
        ? null
        : {
            check: entry.rule.check,
            reasonCode: entry.rule.reasonCode,
            met: entry.rule.details.met.en,
            notMet: entry.rule.details.notMet.en,
            message: entry.rule.message,
            finding: entry.rule.finding,
          },
  }));
  const source = [
    "/**",
    " * Each document type's code, accepted files, size cap, extracted schema and rule",
    " * (its check, reason and sentences), without the layout that reads it: generated from",
    " * shared/domain/document-registry.ts by `npm run openapi`. Do not edit.",
    " */",
    "",
    `export const TYPE_FACTS = ${JSON.stringify(facts, null, 2)} as const;`,
    "",
  ].join("\n");
  return formatted(source, TYPE_FACTS_MODULE);
}
