/**
 * The document-type registry: one entry per type, and everything that lists types, schemas,
 * rule checks, rule reasons, rejection codes, OpenAPI enums, the pages' labels and the guides'
 * tables derives from it. Adding a type is one entry here, its layout file (`certificates/`),
 * its test-document template and its page under docs/document-types/; `npm run openapi` then
 * writes what derives from it (`type-facts.ts`, the functions' layout-free view of it, among).
 */
import { criminalRecordLayout } from "./certificates/criminal-record.ts";
import { EDEVLET_ISSUE_DATE_LABELS, edevletDocumentLayout } from "./certificates/edevlet-document.ts";
import { gsbKykDormLayout } from "./certificates/gsb-kyk-dorm.ts";
import type { CertificateLayout, Words } from "./certificates/layout.ts";
import { nviResidenceLayout } from "./certificates/nvi-residence.ts";
import { sgkServiceRecordLayout } from "./certificates/sgk-service-record.ts";
import { yokGraduateLayout } from "./certificates/yok-graduate.ts";
import { yokStudentLayout } from "./certificates/yok-student.ts";
import { type FileType, MiB, rulesOf } from "./document-types.ts";

export type { Words } from "./certificates/layout.ts";

/** The check a type adds after `fields_extracted`, what its failure is called, and how both read. */
export interface TypeRule<Fields, Check extends string = string, Reason extends string = string> {
  check: Check;
  reasonCode: Reason;
  passes(fields: Fields): boolean;
  /** The check's detail when the rule is met, and when it is not (`rule_met`, `rule_not_met`). */
  details: { met: Words; notMet: Words };
  /** The sentence the resource shows beside the reason code. */
  message: string;
  /** What a reviewer who rejects with the reason found, after "A reviewer ". */
  finding: string;
  /** The labels of the check and of the reason on the pages. */
  labels: { check: Words; reason: Words };
}

export interface DocumentTypeEntry<
  Code extends string = string,
  Schema extends string = string,
  Fields = Record<string, unknown>,
  Check extends string = string,
  Reason extends string = string,
> {
  code: Code;
  /** Who holds the issuer's copy: e-Devlet's barcoded document verification for every type so far. */
  issuer: "edevlet";
  /** What the document is, in a phrase, for the guides' tables and the OpenAPI document. */
  description: Words;
  /** The type's name on the pages. */
  labels: Words;
  /** The original is a PDF; a photo (JPG/PNG) is accepted and goes to review. */
  fileTypes: readonly FileType[];
  maxFileSizeBytes: number;
  layout: CertificateLayout<Schema, Fields>;
  /** The type rule, or null when the type is checked for authenticity only. */
  rule: TypeRule<Fields, Check, Reason> | null;
  /**
   * The labels the issue date is printed after (`DD.MM.YYYY`, maybe with a time after it); the
   * first is the one the test documents print.
   */
  issueDateLabels: readonly [string, ...string[]];
}

/** An entry with its literal types kept, so that the codes and reasons derived stay unions. */
export function documentType<
  const Code extends string,
  const Schema extends string,
  Fields,
  const Check extends string = never,
  const Reason extends string = never,
>(
  entry: DocumentTypeEntry<Code, Schema, Fields, Check, Reason>,
): DocumentTypeEntry<Code, Schema, Fields, Check, Reason> {
  return entry;
}

const ANY_FILE: readonly FileType[] = ["pdf", "jpeg", "png"];

export const DOCUMENT_REGISTRY = [
  documentType({
    code: "YOK_STUDENT",
    issuer: "edevlet",
    description: {
      en: "YÖK student certificate (Öğrenci Belgesi) from e-Devlet",
      tr: "e-Devlet'ten YÖK Öğrenci Belgesi",
    },
    labels: { en: "YÖK student certificate", tr: "YÖK öğrenci belgesi" },
    fileTypes: ANY_FILE,
    maxFileSizeBytes: 10 * MiB,
    layout: yokStudentLayout,
    rule: {
      check: "student_active",
      reasonCode: "student_not_active",
      passes: (fields) => fields.is_active === true,
      details: {
        met: { en: "The certificate shows an active student", tr: "Belge, öğrencinin aktif olduğunu gösteriyor" },
        notMet: {
          en: "The certificate shows a student who is not active",
          tr: "Belge, öğrencinin aktif olmadığını gösteriyor",
        },
      },
      message: "The certificate does not show an active student",
      finding: "found the certificate does not show an active student",
      labels: {
        check: { en: "Student active", tr: "Öğrenci aktif" },
        reason: { en: "Student not active", tr: "Öğrenci aktif değil" },
      },
    },
    issueDateLabels: ["Belge Tarihi", "Düzenlenme Tarihi"],
  }),
  documentType({
    code: "GSB_KYK_DORM",
    issuer: "edevlet",
    description: {
      en: "KYK dormitory certificate (GSB Yurt Belgesi) from e-Devlet",
      tr: "e-Devlet'ten KYK yurt belgesi (GSB Yurt Belgesi)",
    },
    labels: { en: "GSB KYK dormitory certificate", tr: "GSB KYK yurt belgesi" },
    fileTypes: ANY_FILE,
    maxFileSizeBytes: 10 * MiB,
    layout: gsbKykDormLayout,
    rule: {
      check: "student_accommodated",
      reasonCode: "student_not_accommodated",
      passes: (fields) => fields.is_accommodated === true,
      details: {
        met: {
          en: "The certificate shows the student living in the dormitory",
          tr: "Belge, öğrencinin yurtta kaldığını gösteriyor",
        },
        notMet: {
          en: "The certificate shows a student who no longer lives in the dormitory",
          tr: "Belge, öğrencinin artık yurtta kalmadığını gösteriyor",
        },
      },
      message: "The certificate does not show a student staying in the dormitory",
      finding: "found the certificate does not show a student staying in the dormitory",
      labels: {
        check: { en: "Student accommodated", tr: "Öğrenci yurtta kalıyor" },
        reason: { en: "Student not accommodated", tr: "Öğrenci yurtta kalmıyor" },
      },
    },
    issueDateLabels: ["Belge Tarihi", "Düzenlenme Tarihi"],
  }),
  documentType({
    code: "YOK_GRADUATE",
    issuer: "edevlet",
    description: {
      en: "YÖK graduate certificate (Mezun Belgesi) from e-Devlet",
      tr: "e-Devlet'ten YÖK Mezun Belgesi",
    },
    labels: { en: "YÖK graduate certificate", tr: "YÖK mezun belgesi" },
    fileTypes: ANY_FILE,
    maxFileSizeBytes: 10 * MiB,
    layout: yokGraduateLayout,
    rule: {
      check: "graduated",
      reasonCode: "not_graduated",
      passes: (fields) => fields.is_graduated === true,
      details: {
        met: { en: "The certificate shows the holder graduated", tr: "Belge, sahibinin mezun olduğunu gösteriyor" },
        notMet: {
          en: "The certificate does not show the holder graduated",
          tr: "Belge, sahibinin mezun olduğunu göstermiyor",
        },
      },
      message: "The certificate does not show a graduate",
      finding: "found the certificate does not show a graduate",
      labels: {
        check: { en: "Graduated", tr: "Mezun" },
        reason: { en: "Not graduated", tr: "Mezun değil" },
      },
    },
    issueDateLabels: ["Belge Tarihi", "Düzenlenme Tarihi"],
  }),
  documentType({
    code: "NVI_RESIDENCE",
    issuer: "edevlet",
    description: {
      en: "Residence certificate (Yerleşim Yeri ve Diğer Adres Belgesi, NVİ) from e-Devlet",
      tr: "e-Devlet'ten Yerleşim Yeri ve Diğer Adres Belgesi (NVİ)",
    },
    labels: { en: "NVİ residence certificate", tr: "NVİ yerleşim yeri belgesi" },
    fileTypes: ANY_FILE,
    maxFileSizeBytes: 10 * MiB,
    layout: nviResidenceLayout,
    rule: null,
    issueDateLabels: ["Düzenlenme Tarihi", "Belge Tarihi"],
  }),
  documentType({
    code: "CRIMINAL_RECORD",
    issuer: "edevlet",
    description: {
      en: "Criminal record certificate (Adli Sicil Kaydı, Adalet Bakanlığı) from e-Devlet",
      tr: "e-Devlet'ten Adli Sicil Kaydı (Adalet Bakanlığı)",
    },
    labels: { en: "Criminal record certificate", tr: "Adli sicil kaydı belgesi" },
    fileTypes: ANY_FILE,
    maxFileSizeBytes: 10 * MiB,
    layout: criminalRecordLayout,
    rule: {
      check: "no_criminal_record",
      reasonCode: "criminal_record_present",
      passes: (fields) => fields.has_record === false,
      details: {
        met: { en: "The certificate shows no criminal record", tr: "Belge, adli sicil kaydı olmadığını gösteriyor" },
        notMet: { en: "The certificate shows a criminal record", tr: "Belge, bir adli sicil kaydı gösteriyor" },
      },
      message: "The certificate shows a criminal record",
      finding: "found the certificate shows a criminal record",
      labels: {
        check: { en: "No criminal record", tr: "Adli sicil kaydı yok" },
        reason: { en: "Criminal record present", tr: "Adli sicil kaydı var" },
      },
    },
    issueDateLabels: ["Düzenleme Tarihi", "Düzenlenme Tarihi", "Belge Tarihi"],
  }),
  documentType({
    code: "SGK_SERVICE_RECORD",
    issuer: "edevlet",
    description: {
      en: "SGK service record (Tescil ve Hizmet Dökümü) from e-Devlet",
      tr: "e-Devlet'ten SGK Tescil ve Hizmet Dökümü",
    },
    labels: { en: "SGK service record", tr: "SGK hizmet dökümü" },
    fileTypes: ANY_FILE,
    maxFileSizeBytes: 10 * MiB,
    layout: sgkServiceRecordLayout,
    rule: null,
    issueDateLabels: ["Döküm Tarihi", "Belge Tarihi"],
  }),
  documentType({
    code: "EDEVLET_DOCUMENT",
    issuer: "edevlet",
    description: {
      en: "Any e-Devlet barcoded document, checked for authenticity only",
      tr: "e-Devlet'in barkodlu herhangi bir belgesi, yalnızca özgünlüğü denetlenir",
    },
    labels: { en: "e-Devlet document", tr: "e-Devlet belgesi" },
    fileTypes: ANY_FILE,
    maxFileSizeBytes: 10 * MiB,
    layout: edevletDocumentLayout,
    rule: null,
    issueDateLabels: EDEVLET_ISSUE_DATE_LABELS,
  }),
] as const;

/**
 * Any registry: the derivations (here, in `document-types.ts` and `review.ts`) take one, so that a
 * registry made in a test derives the same way.
 */
export type Registry = readonly DocumentTypeEntry[];

type Entry = (typeof DOCUMENT_REGISTRY)[number];
export type DocumentType = Entry["code"];
/** The rule checks and rule reasons of the registry's types. */
export type RuleCheck = NonNullable<Entry["rule"]>["check"];
export type RuleReason = NonNullable<Entry["rule"]>["reasonCode"];
export type ExtractedSchemaName = Entry["layout"]["schema"];

/** The registry entry of `documentType`. */
export function registryEntry<C extends DocumentType>(documentType: C): Extract<Entry, { code: C }> {
  return DOCUMENT_REGISTRY.find((entry) => entry.code === documentType) as Extract<Entry, { code: C }>;
}

/**
 * The pages' labels: the types, the rule checks, the rule reasons and the extracted fields, each
 * by code, in both languages. A field several types share has one label: two types that label
 * it differently are refused.
 */
export function pageWords(registry: Registry): {
  types: Record<keyof Words, Record<string, string>>;
  checks: Record<keyof Words, Record<string, string>>;
  reasons: Record<keyof Words, Record<string, string>>;
  fields: Record<keyof Words, Record<string, string>>;
  ruleMet: Record<keyof Words, Record<string, string>>;
  ruleNotMet: Record<keyof Words, Record<string, string>>;
} {
  const rules = rulesOf(registry);
  const byLanguage = (pairs: [string, Words][]) => ({
    en: Object.fromEntries(pairs.map(([code, words]) => [code, words.en])),
    tr: Object.fromEntries(pairs.map(([code, words]) => [code, words.tr])),
  });
  return {
    types: byLanguage(registry.map((entry) => [entry.code, entry.labels])),
    checks: byLanguage(rules.map((rule) => [rule.check, rule.labels.check])),
    reasons: byLanguage(rules.map((rule) => [rule.reasonCode, rule.labels.reason])),
    fields: byLanguage([...fieldLabels(registry)]),
    ruleMet: byLanguage(rules.map((rule) => [rule.check, rule.details.met])),
    ruleNotMet: byLanguage(rules.map((rule) => [rule.check, rule.details.notMet])),
  };
}

function fieldLabels(registry: Registry): Map<string, Words> {
  const labels = new Map<string, Words>();
  for (const entry of registry) {
    for (const [field, words] of Object.entries(entry.layout.fieldLabels as Record<string, Words>)) {
      const known = labels.get(field);
      if (known && (known.en !== words.en || known.tr !== words.tr)) {
        throw new Error(`The field ${field} of ${entry.code} is labelled otherwise by another type`);
      }
      labels.set(field, words);
    }
  }
  return labels;
}
