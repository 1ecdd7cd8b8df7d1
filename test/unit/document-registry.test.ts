/**
 * Everything that lists document types derives from the registry: a type added to a registry
 * made here appears in the type codes (the generator's list and the OpenAPI enum), its extracted
 * schema, its rule's check, reason, message and reviewer finding, the rejection codes, and both
 * languages' labels the pages are generated with; and the real registry's derivations are what
 * the committed OpenAPI document and the pages hold.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type CertificateLayout, PERSON_FIELD_LABELS } from "#shared/domain/certificates/layout";
import { extractedOptions } from "#shared/domain/document-layouts";
import {
  DOCUMENT_REGISTRY,
  type DocumentTypeEntry,
  pageWords,
  type Registry,
  type Words,
} from "#shared/domain/document-registry";
import {
  DOCUMENT_TYPE_CODES,
  ruleFindings,
  ruleReasonMessages,
  rulesOf,
  typeCodes,
} from "#shared/domain/document-types";
import { REASON_MESSAGES } from "#shared/domain/reasons";
import { REJECTION_CODES, rejectionCodes } from "#shared/domain/review";
import * as mini from "#shared/domain/zod";
import { DOCS_SECTIONS } from "../../openapi/docs-sections.ts";
import { renderTypeFacts } from "../../openapi/type-facts.ts";
import { renderWebDocumentTypes } from "../../openapi/web-document-types.ts";
import { CERTIFICATE_TYPES } from "../../scripts/test-documents/certificate.ts";
import * as web from "../../web/common/document-types.ts";

const ROOT = path.resolve(__dirname, "../..");

const taken = new Set<string>(DOCUMENT_TYPE_CODES);
const code = fc.stringMatching(/^[A-Z][A-Z_]{2,24}$/).filter((value) => !taken.has(value));
const name = fc.stringMatching(/^[a-z][a-z_]{2,24}$/);
/** A label as the dictionaries hold them: letters, Turkish ones too, and spaces. */
const label = fc.stringMatching(/^[A-Za-zÇĞİÖŞÜçğıöşü][A-Za-zÇĞİÖŞÜçğıöşü ]{0,30}$/);
const words = fc.record({ en: label, tr: label });

/** The fields the registry's layouts extract already. */
const fieldsTaken = new Set(DOCUMENT_REGISTRY.flatMap((entry) => Object.keys(entry.layout.fieldLabels)));

function layout(schema: string, field: string, labels: Words): CertificateLayout<string, Record<string, unknown>> {
  return {
    schema,
    fieldsSchema: mini.strictObject({ barcode: mini.nullable(mini.string()), [field]: mini.nullable(mini.string()) }),
    labels: {},
    fieldLabels: { barcode: PERSON_FIELD_LABELS.barcode, [field]: labels },
    read: () => ({ fields: { barcode: null }, incomplete: ["barcode"] }),
    subject: () => ({ full_name: null, birth_date: null }),
  };
}

/** A type that is not in the registry, with or without a rule. */
const newType = fc
  .record({
    code,
    schema: name.map((value) => `${value}.v1`),
    labels: words,
    field: name.filter((value) => !fieldsTaken.has(value)),
    fieldWords: words,
    rule: fc.option(
      fc.record({
        check: name,
        reason: name,
        checkWords: words,
        reasonWords: words,
        metWords: words,
        notMetWords: words,
        message: fc.string(),
        finding: fc.string(),
      }),
      { nil: null },
    ),
  })
  .filter(({ schema, rule }) => {
    const schemas = DOCUMENT_REGISTRY.map((entry) => entry.layout.schema as string);
    const reasons = Object.keys(REASON_MESSAGES);
    return (
      !schemas.includes(schema) && (rule === null || (!reasons.includes(rule.reason) && rule.check !== rule.reason))
    );
  })
  .map(
    (drawn): DocumentTypeEntry => ({
      code: drawn.code,
      issuer: "edevlet",
      description: drawn.labels,
      labels: drawn.labels,
      fileTypes: ["pdf"],
      maxFileSizeBytes: 1024,
      layout: layout(drawn.schema, drawn.field, drawn.fieldWords),
      rule:
        drawn.rule === null
          ? null
          : {
              check: drawn.rule.check,
              reasonCode: drawn.rule.reason,
              passes: () => true,
              details: { met: drawn.rule.metWords, notMet: drawn.rule.notMetWords },
              message: drawn.rule.message,
              finding: drawn.rule.finding,
              labels: { check: drawn.rule.checkWords, reason: drawn.rule.reasonWords },
            },
      issueDateLabels: ["Belge Tarihi"],
    }),
  );

const withType = (entry: DocumentTypeEntry): Registry => [...DOCUMENT_REGISTRY, entry];

describe("the derivations of a registry with a type added", () => {
  it("list the type's code, as the OpenAPI enum and the generator list it, and its extracted schema", () => {
    fc.assert(
      fc.property(newType, (entry) => {
        const registry = withType(entry);
        expect(typeCodes(registry)).toEqual([...DOCUMENT_TYPE_CODES, entry.code]);
        const schema = z.toJSONSchema(mini.enum(typeCodes(registry))) as { enum: string[] };
        expect(schema.enum).toContain(entry.code);
        const options = extractedOptions(registry).map((option) => z.toJSONSchema(option.shape.schema).const);
        expect(options).toContain(entry.layout.schema);
      }),
    );
  });

  it("take its rule's check, reason, message and finding, and offer the reason to reviewers", () => {
    fc.assert(
      fc.property(newType, (entry) => {
        const registry = withType(entry);
        const reasons = rulesOf(registry).map((rule) => rule.reasonCode);
        const rejections: readonly string[] = rejectionCodes(registry);
        if (entry.rule === null) {
          expect(rulesOf(registry)).toEqual(rulesOf(DOCUMENT_REGISTRY));
          expect(rejections).toEqual(REJECTION_CODES);
          return;
        }
        expect(rulesOf(registry).map((rule) => rule.check)).toContain(entry.rule.check);
        expect(reasons).toContain(entry.rule.reasonCode);
        expect(rejections).toContain(entry.rule.reasonCode);
        expect((ruleReasonMessages(registry) as Record<string, string>)[entry.rule.reasonCode]).toBe(
          entry.rule.message,
        );
        expect((ruleFindings(registry) as Record<string, string>)[entry.rule.reasonCode]).toBe(entry.rule.finding);
      }),
    );
  });

  it("label the type, its fields, its check, its reason and its check's details in both languages", () => {
    fc.assert(
      fc.property(newType, (entry) => {
        const labels = pageWords(withType(entry));
        for (const language of ["en", "tr"] as const) {
          expect(labels.types[language][entry.code]).toBe(entry.labels[language]);
          for (const [field, words] of Object.entries(entry.layout.fieldLabels as Record<string, Words>)) {
            expect(labels.fields[language][field]).toBe(words[language]);
          }
          if (entry.rule === null) continue;
          expect(labels.checks[language][entry.rule.check]).toBe(entry.rule.labels.check[language]);
          expect(labels.reasons[language][entry.rule.reasonCode]).toBe(entry.rule.labels.reason[language]);
          expect(labels.ruleMet[language][entry.rule.check]).toBe(entry.rule.details.met[language]);
          expect(labels.ruleNotMet[language][entry.rule.check]).toBe(entry.rule.details.notMet[language]);
        }
      }),
    );
  });

  it("write the pages' module with the type and its labels", () => {
    fc.assert(
      fc.property(newType, (entry) => {
        const source = renderWebDocumentTypes(withType(entry));
        expect(source).toContain(JSON.stringify(entry.code));
        expect(source).toContain(JSON.stringify(entry.labels.tr));
        if (entry.rule) expect(source).toContain(JSON.stringify(entry.rule.reasonCode));
      }),
      // Each run starts the formatter: a few are enough.
      { numRuns: 5 },
    );
  });

  it("write the guides' table rows with the type linked to its page, and the backoffice's list with its rule's reason", () => {
    fc.assert(
      fc.property(newType, (entry) => {
        const registry = withType(entry);
        for (const section of DOCS_SECTIONS) {
          const written = section.render(registry);
          if (section.name === "types-table") {
            expect(written).toContain(`[\`${entry.code}\`](`);
            expect(written).toContain(`${entry.code}.md)`);
            expect(written).toContain(`\`${entry.layout.schema}\``);
          }
          if (entry.rule) expect(written).toContain(`\`${entry.rule.reasonCode}\``);
        }
      }),
    );
  });

  it("write the functions' facts with the type, its files, its size cap and its rule's sentences", () => {
    fc.assert(
      fc.property(newType, (entry) => {
        const source = renderTypeFacts(withType(entry));
        // The module's one value, read back as the literal it is.
        const literal = /export const TYPE_FACTS = ([\s\S]*) as const;\s*$/.exec(source)?.[1] ?? "null";
        const facts = new Function(`return ${literal}`)() as { code: string }[];
        expect(facts.find((type) => type.code === entry.code)).toEqual({
          code: entry.code,
          fileTypes: entry.fileTypes,
          maxFileSizeBytes: entry.maxFileSizeBytes,
          schema: entry.layout.schema,
          rule: entry.rule && {
            check: entry.rule.check,
            reasonCode: entry.rule.reasonCode,
            met: entry.rule.details.met.en,
            notMet: entry.rule.details.notMet.en,
            message: entry.rule.message,
            finding: entry.rule.finding,
          },
        });
      }),
      { numRuns: 5 },
    );
  });
});

describe("a field two types share", () => {
  it("has one label: a type that labels it otherwise is refused", () => {
    const entry = fc.sample(newType, 1)[0] as DocumentTypeEntry;
    const relabelled = {
      ...entry,
      layout: { ...entry.layout, fieldLabels: { barcode: { en: "Bar code", tr: "Barkod numarası" } } },
    };
    expect(() => pageWords(withType(relabelled))).toThrow(/barcode/);
  });
});

describe("the registry's own derivations", () => {
  it("are what the committed OpenAPI documents, the pages' module and the generator hold", () => {
    type Document = { components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> } };
    const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as Document;
    const enumOf = (document: Document, schema: string, property: string) =>
      document.components.schemas[schema]?.properties[property]?.enum;
    expect(enumOf(read("openapi.json"), "CreateVerificationRequest", "document_type")).toEqual(
      typeCodes(DOCUMENT_REGISTRY),
    );
    expect(enumOf(read("openapi-backoffice.json"), "ReviewDecision", "reason_code")).toEqual(
      rejectionCodes(DOCUMENT_REGISTRY),
    );
    expect(web.DOCUMENT_TYPE_CODES).toEqual(typeCodes(DOCUMENT_REGISTRY));
    expect(web.RULE_REASONS).toEqual(rulesOf(DOCUMENT_REGISTRY).map((rule) => rule.reasonCode));
    expect(CERTIFICATE_TYPES).toEqual(typeCodes(DOCUMENT_REGISTRY));
  });

  it.each([
    ["web/common/document-types.ts", renderWebDocumentTypes],
    ["shared/domain/type-facts.ts", renderTypeFacts],
  ])("are written to %s as a fresh rendering makes them", (file, render) => {
    const committed = readFileSync(path.join(ROOT, file), "utf8");
    expect(committed, `${file} is stale: npm run openapi`).toBe(render(DOCUMENT_REGISTRY));
  });
});
