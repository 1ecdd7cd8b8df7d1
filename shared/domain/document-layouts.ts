/**
 * Each document type's layout: the labels it reads, the extracted schema and the type rule
 * (`certificates/`). What reads a certificate loads them; what only takes an upload does not.
 */
import { gsbKykDormLayout } from "./certificates/gsb-kyk-dorm.ts";
import { readLabelled } from "./certificates/labels.ts";
import type { CertificateLayout, CertificateSchema } from "./certificates/layout.ts";
import { isoDate, parsed } from "./certificates/values.ts";
import { yokStudentLayout } from "./certificates/yok-student.ts";
import type { DocumentType } from "./document-types.ts";
import * as z from "./zod.ts";

/** A layout as the pipeline sees any of them. */
export type AnyLayout = CertificateLayout<CertificateSchema, Record<string, unknown>>;

/** The layout of every document type: the compiler refuses a type without one. */
export const DOCUMENT_LAYOUTS = {
  YOK_STUDENT: yokStudentLayout,
  GSB_KYK_DORM: gsbKykDormLayout,
} as const satisfies Record<DocumentType, AnyLayout>;

/** `extracted`: the fields read from the issuer's copy, in the schema of the document's type. */
export const extractedSchema = z.discriminatedUnion("schema", [
  z.strictObject({
    schema: z.literal(yokStudentLayout.schema),
    source: z.literal("issuer_copy"),
    fields: yokStudentLayout.fieldsSchema,
  }),
  z.strictObject({
    schema: z.literal(gsbKykDormLayout.schema),
    source: z.literal("issuer_copy"),
    fields: gsbKykDormLayout.fieldsSchema,
  }),
]);

/** The layout of `documentType`, seen as any layout: the pipeline reads every type the same way. */
export function layoutOf(documentType: DocumentType): AnyLayout {
  return DOCUMENT_LAYOUTS[documentType];
}

/** The labels an e-Devlet document prints its issue date after; a time may follow the date. */
const ISSUE_DATE_LABELS = { issued_at: ["Belge Tarihi", "Düzenlenme Tarihi", "Belgenin Düzenlendiği Tarih"] } as const;

/**
 * The issue date a document of `documentType` prints, ISO `YYYY-MM-DD`, read from its text
 * lines; null when it prints none or it is not a date.
 */
export function issueDateOf(_documentType: DocumentType, lines: readonly string[]): string | null {
  const printed = readLabelled(lines, ISSUE_DATE_LABELS).issued_at;
  return parsed(printed, (value) => isoDate(value.split(/\s+/)[0] ?? ""));
}
