/**
 * The residence certificate (Yerleşim Yeri ve Diğer Adres Belgesi) of the General Directorate
 * of Population and Citizenship Affairs (NVİ) as e-Devlet prints it: who lives where.
 */
import * as z from "../zod.ts";
import { BARCODE_PATTERN, isBarcode, KEY_LABELS } from "./keys.ts";
import { readLabelled } from "./labels.ts";
import { type CertificateLayout, type FieldLabels, missing, PERSON_FIELD_LABELS } from "./layout.ts";
import { isoDate, parsed } from "./values.ts";

const LABELS = {
  full_name: ["Adı Soyadı", "Adı ve Soyadı", "Ad Soyad"],
  father_name: ["Baba Adı"],
  mother_name: ["Anne Adı"],
  birth_place: ["Doğum Yeri"],
  birth_date: ["Doğum Tarihi"],
  // Not `Yerleşim Yeri` alone: the heading `YERLEŞİM YERİ VE DİĞER ADRES BELGESİ` starts with it.
  address: ["Yerleşim Yeri Adresi", "Adres"],
  address_number: ["Adres No", "Adres Numarası"],
  declared_at: ["Beyan Tarihi"],
  moved_in_at: ["Taşınma Tarihi"],
  ...KEY_LABELS,
} as const;

const text = (description: string) => z.nullable(z.string()).check(z.describe(description));
const date = (description: string) => z.nullable(z.iso.date()).check(z.describe(`${description}, \`YYYY-MM-DD\``));

export const nviResidenceFieldsSchema = z
  .strictObject({
    full_name: text("`Adı Soyadı`, as printed. Required"),
    father_name: text("`Baba Adı`, as printed"),
    mother_name: text("`Anne Adı`, as printed"),
    birth_place: text("`Doğum Yeri`, as printed"),
    birth_date: date("`Doğum Tarihi`. Required"),
    address: text(
      "`Yerleşim Yeri Adresi`: the residence address as one line, as printed (a wrapped address ending with `/` continues on the next line). Required",
    ),
    address_number: z
      .nullable(z.string().check(z.regex(/^[0-9]{10}$/)))
      .check(z.describe("`Adres No`: the national address database's 10-digit number for the address")),
    moved_in_at: date("`Taşınma Tarihi`: when the person moved to the address"),
    declared_at: date("`Beyan Tarihi`: when the address was declared"),
    barcode: z
      .nullable(z.string().check(z.regex(BARCODE_PATTERN)))
      .check(z.describe("The e-Devlet barcode number the certificate was verified with. Required")),
  })
  .check(z.describe("Fields of a residence certificate; null where the certificate does not print them"));

export type NviResidenceFields = z.infer<typeof nviResidenceFieldsSchema>;

const REQUIRED = [
  "full_name",
  "birth_date",
  "address",
  "barcode",
] as const satisfies readonly (keyof NviResidenceFields)[];

function read(lines: readonly string[], barcode: string) {
  const printed = readLabelled(lines, LABELS);
  const addressNumber = printed.address_number?.replace(/\s+/g, "");
  const fields: NviResidenceFields = {
    full_name: printed.full_name ?? null,
    father_name: printed.father_name ?? null,
    mother_name: printed.mother_name ?? null,
    birth_place: printed.birth_place ?? null,
    birth_date: parsed(printed.birth_date, isoDate),
    address: printed.address ?? null,
    address_number: addressNumber !== undefined && /^[0-9]{10}$/.test(addressNumber) ? addressNumber : null,
    moved_in_at: parsed(printed.moved_in_at, isoDate),
    declared_at: parsed(printed.declared_at, isoDate),
    barcode: isBarcode(barcode) ? barcode : null,
  };
  return { fields, incomplete: missing(fields, REQUIRED) };
}

/** Each field's label on the pages. */
const FIELD_LABELS: FieldLabels<NviResidenceFields> = {
  full_name: PERSON_FIELD_LABELS.full_name,
  father_name: PERSON_FIELD_LABELS.father_name,
  mother_name: PERSON_FIELD_LABELS.mother_name,
  birth_place: PERSON_FIELD_LABELS.birth_place,
  birth_date: PERSON_FIELD_LABELS.birth_date,
  barcode: PERSON_FIELD_LABELS.barcode,
  address: { en: "Address", tr: "Yerleşim Yeri Adresi" },
  address_number: { en: "Address number", tr: "Adres No" },
  moved_in_at: { en: "Moved in on", tr: "Taşınma Tarihi" },
  declared_at: { en: "Declared on", tr: "Beyan Tarihi" },
};

/** The residence certificate: `nvi_residence.v1`. */
export const nviResidenceLayout: CertificateLayout<"nvi_residence.v1", NviResidenceFields> = {
  schema: "nvi_residence.v1",
  fieldsSchema: nviResidenceFieldsSchema,
  labels: LABELS,
  fieldLabels: FIELD_LABELS,
  read,
  subject: (fields) => ({ full_name: fields.full_name, birth_date: fields.birth_date }),
};
