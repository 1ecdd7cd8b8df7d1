/**
 * The criminal record certificate (Adli Sicil Kaydı) of the Ministry of Justice as e-Devlet
 * prints it: whether the person has a criminal record.
 */
import * as z from "../zod.ts";
import { BARCODE_PATTERN, isBarcode, KEY_LABELS } from "./keys.ts";
import { readLabelled } from "./labels.ts";
import { type CertificateLayout, type FieldLabels, missing, PERSON_FIELD_LABELS } from "./layout.ts";
import { isoDate, parsed, statusIs } from "./values.ts";

const LABELS = {
  full_name: ["Adı Soyadı", "Adı ve Soyadı", "Ad Soyad"],
  father_name: ["Baba Adı"],
  mother_name: ["Anne Adı"],
  birth_place: ["Doğum Yeri"],
  birth_date: ["Doğum Tarihi"],
  purpose: ["Belgenin Verileceği Yer", "Verileceği Yer", "Talep Nedeni"],
  record: ["Adli Sicil Kaydı", "Adli Sicil Kaydı Durumu", "Sabıka Kaydı"],
  ...KEY_LABELS,
} as const;

/** Texts of `Adli Sicil Kaydı` that mean no record; anything else (`Vardır`, a list of sentences) is a record. */
const NO_RECORD = ["Yoktur", "Adli sicil kaydı yoktur", "Kaydı Yoktur", "Yok"];

const text = (description: string) => z.nullable(z.string()).check(z.describe(description));
const date = (description: string) => z.nullable(z.iso.date()).check(z.describe(`${description}, \`YYYY-MM-DD\``));

export const criminalRecordFieldsSchema = z
  .strictObject({
    full_name: text("`Adı Soyadı`, as printed. Required"),
    father_name: text("`Baba Adı`, as printed"),
    mother_name: text("`Anne Adı`, as printed"),
    birth_place: text("`Doğum Yeri`, as printed"),
    birth_date: date("`Doğum Tarihi`. Required"),
    purpose: text("`Belgenin Verileceği Yer`: whom the certificate is for, as the holder stated it"),
    record: text("`Adli Sicil Kaydı`, as printed, e.g. `Adli sicil kaydı yoktur`. Required"),
    has_record: z
      .nullable(z.boolean())
      .check(
        z.describe(
          "Whether `record` shows a criminal record (anything but `Yoktur` or `Adli sicil kaydı yoktur`); null when nothing is printed. Required",
        ),
      ),
    barcode: z
      .nullable(z.string().check(z.regex(BARCODE_PATTERN)))
      .check(z.describe("The e-Devlet barcode number the certificate was verified with. Required")),
  })
  .check(z.describe("Fields of a criminal record certificate; null where the certificate does not print them"));

export type CriminalRecordFields = z.infer<typeof criminalRecordFieldsSchema>;

const REQUIRED = [
  "full_name",
  "birth_date",
  "record",
  "has_record",
  "barcode",
] as const satisfies readonly (keyof CriminalRecordFields)[];

function read(lines: readonly string[], barcode: string) {
  const printed = readLabelled(lines, LABELS);
  const record = printed.record;
  const fields: CriminalRecordFields = {
    full_name: printed.full_name ?? null,
    father_name: printed.father_name ?? null,
    mother_name: printed.mother_name ?? null,
    birth_place: printed.birth_place ?? null,
    birth_date: parsed(printed.birth_date, isoDate),
    purpose: printed.purpose ?? null,
    record: record ?? null,
    has_record: record === undefined ? null : !statusIs(record, NO_RECORD),
    barcode: isBarcode(barcode) ? barcode : null,
  };
  return { fields, incomplete: missing(fields, REQUIRED) };
}

/** Each field's label on the pages. */
const FIELD_LABELS: FieldLabels<CriminalRecordFields> = {
  full_name: PERSON_FIELD_LABELS.full_name,
  father_name: PERSON_FIELD_LABELS.father_name,
  mother_name: PERSON_FIELD_LABELS.mother_name,
  birth_place: PERSON_FIELD_LABELS.birth_place,
  birth_date: PERSON_FIELD_LABELS.birth_date,
  barcode: PERSON_FIELD_LABELS.barcode,
  purpose: { en: "Issued for", tr: "Belgenin Verileceği Yer" },
  record: { en: "Criminal record", tr: "Adli Sicil Kaydı" },
  has_record: { en: "Has a criminal record", tr: "Adli sicil kaydı var" },
};

/** The criminal record certificate: `criminal_record.v1`. */
export const criminalRecordLayout: CertificateLayout<"criminal_record.v1", CriminalRecordFields> = {
  schema: "criminal_record.v1",
  fieldsSchema: criminalRecordFieldsSchema,
  labels: LABELS,
  fieldLabels: FIELD_LABELS,
  read,
  subject: (fields) => ({ full_name: fields.full_name, birth_date: fields.birth_date }),
};
