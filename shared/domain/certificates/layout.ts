/**
 * What a certificate type's layout is: the one place that knows how a type prints its fields
 * and what it yields.
 */
import type * as z from "../zod.ts";
import type { LabelTable } from "./labels.ts";
import type { Subject } from "./subject.ts";

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
