/**
 * What a certificate type's layout is: the one place that knows how a type prints its fields
 * and what it yields.
 */
import type * as z from "../zod.ts";
import type { LabelTable } from "./labels.ts";
import type { Subject } from "./subject.ts";

/** A label in each language the pages speak. */
export interface Words {
  en: string;
  tr: string;
}

/** Each field's label on the pages, for every field of the layout. */
export type FieldLabels<Fields> = { readonly [Name in keyof Fields]-?: Words };

/** The labels of the fields several layouts share. */
export const PERSON_FIELD_LABELS = {
  full_name: { en: "Full name", tr: "Adı Soyadı" },
  first_name: { en: "First name", tr: "Adı" },
  last_name: { en: "Last name", tr: "Soyadı" },
  mother_name: { en: "Mother's name", tr: "Anne Adı" },
  father_name: { en: "Father's name", tr: "Baba Adı" },
  birth_date: { en: "Date of birth", tr: "Doğum Tarihi" },
  birth_place: { en: "Place of birth", tr: "Doğum Yeri" },
  barcode: { en: "Barcode", tr: "Barkod" },
} as const satisfies Record<string, Words>;

/** The fields read from a certificate, and which required ones are missing or malformed. */
export interface FieldsReading<Fields> {
  fields: Fields;
  /** Required field names, in the layout's order; empty when every required field is well formed. */
  incomplete: string[];
}

/**
 * One certificate type's layout: its `extracted` schema name and fields, the labels it reads,
 * how it reads them and who the certificate is about.
 */
export interface CertificateLayout<Schema extends string, Fields> {
  schema: Schema;
  /** The extracted fields, every one described; the OpenAPI document is built from it. */
  fieldsSchema: z.ZodMiniType<Fields>;
  /**
   * Every label the layout reads, keyed by what it reads: the first label of each list is the
   * one the model certificate prints, the others are variants also seen. Not every key is a
   * field: some feed one (`unit_path` gives the unit names), and some are known only so that
   * their lines are not mistaken for values (the identity number is never yielded).
   */
  labels: LabelTable<string>;
  /** Each extracted field's label on the pages, in both languages. */
  fieldLabels: FieldLabels<Fields>;
  /**
   * Reads the fields from a certificate's text lines. `barcode` is the one `documentKeys`
   * found, yielded when well formed; it is the only key yielded, never the identity number.
   * Never throws.
   */
  read(lines: readonly string[], barcode: string): FieldsReading<Fields>;
  /** Who the certificate is about, for `subject_match`: null where the type does not print it. */
  subject(fields: Fields): Subject;
}

/** The names of the required fields that are null, in the order given. */
export function missing<Fields extends Record<string, unknown>>(
  fields: Fields,
  required: readonly (keyof Fields & string)[],
): string[] {
  return required.filter((name) => fields[name] === null);
}
