/**
 * Each document type's layout: the labels it reads, the extracted schema and the type rule
 * (`certificates/`). What reads a certificate loads them; what only takes an upload does not.
 */
import { gsbKykDormLayout } from "./certificates/gsb-kyk-dorm.ts";
import type { CertificateLayout, CertificateSchema } from "./certificates/layout.ts";
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
