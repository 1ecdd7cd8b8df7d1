/**
 * The YÖK graduate certificate (Mezun Belgesi) as e-Devlet prints it: who graduated from which
 * programme, and when.
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
  birth_date: ["Doğum Tarihi"],
  university_name: ["Üniversite", "Üniversite Adı"],
  faculty_name: ["Fakülte / Yüksekokul", "Fakülte", "Fakülte Adı", "Enstitü", "Yüksekokul"],
  program_name: ["Program", "Programı", "Bölüm / Program", "Bölüm"],
  graduated_at: ["Mezuniyet Tarihi"],
  diploma_grade: ["Diploma Notu", "Mezuniyet Notu"],
  diploma_number: ["Diploma No", "Diploma Numarası"],
  graduation_status: ["Mezuniyet Durumu", "Öğrencilik Durumu"],
  ...KEY_LABELS,
} as const;

/** Texts of `Mezuniyet Durumu` that mean graduated; anything else does not. */
const GRADUATED = ["Mezun", "Mezun Oldu"];

const text = (description: string) => z.nullable(z.string()).check(z.describe(description));
const date = (description: string) => z.nullable(z.iso.date()).check(z.describe(`${description}, \`YYYY-MM-DD\``));

export const yokGraduateFieldsSchema = z
  .strictObject({
    full_name: text("`Adı Soyadı`, as printed. Required"),
    father_name: text("`Baba Adı`, as printed"),
    mother_name: text("`Anne Adı`, as printed"),
    birth_date: date("`Doğum Tarihi`. Required"),
    university_name: text("`Üniversite`, as printed. Required"),
    faculty_name: text("`Fakülte / Yüksekokul`, as printed"),
    program_name: text("`Program`, as printed. Required"),
    graduated_at: date("`Mezuniyet Tarihi`: when the holder graduated"),
    diploma_grade: text("`Diploma Notu`, as printed (a grade point average or a mark out of 100)"),
    diploma_number: text("`Diploma No`, as printed"),
    graduation_status: text("`Mezuniyet Durumu`, as printed, e.g. `Mezun`. Required"),
    is_graduated: z
      .nullable(z.boolean())
      .check(
        z.describe(
          "Whether `graduation_status` means graduated (`Mezun` or `Mezun Oldu`); null when no status is printed. Required",
        ),
      ),
    barcode: z
      .nullable(z.string().check(z.regex(BARCODE_PATTERN)))
      .check(z.describe("The e-Devlet barcode number the certificate was verified with. Required")),
  })
  .check(z.describe("Fields of a YÖK graduate certificate; null where the certificate does not print them"));

export type YokGraduateFields = z.infer<typeof yokGraduateFieldsSchema>;

const REQUIRED = [
  "full_name",
  "birth_date",
  "university_name",
  "program_name",
  "graduation_status",
  "is_graduated",
  "barcode",
] as const satisfies readonly (keyof YokGraduateFields)[];

function read(lines: readonly string[], barcode: string) {
  const printed = readLabelled(lines, LABELS);
  const status = printed.graduation_status;
  const fields: YokGraduateFields = {
    full_name: printed.full_name ?? null,
    father_name: printed.father_name ?? null,
    mother_name: printed.mother_name ?? null,
    birth_date: parsed(printed.birth_date, isoDate),
    university_name: printed.university_name ?? null,
    faculty_name: printed.faculty_name ?? null,
    program_name: printed.program_name ?? null,
    graduated_at: parsed(printed.graduated_at, isoDate),
    diploma_grade: printed.diploma_grade ?? null,
    diploma_number: printed.diploma_number ?? null,
    graduation_status: status ?? null,
    is_graduated: status === undefined ? null : statusIs(status, GRADUATED),
    barcode: isBarcode(barcode) ? barcode : null,
  };
  return { fields, incomplete: missing(fields, REQUIRED) };
}

/** Each field's label on the pages. */
const FIELD_LABELS: FieldLabels<YokGraduateFields> = {
  full_name: PERSON_FIELD_LABELS.full_name,
  father_name: PERSON_FIELD_LABELS.father_name,
  mother_name: PERSON_FIELD_LABELS.mother_name,
  birth_date: PERSON_FIELD_LABELS.birth_date,
  barcode: PERSON_FIELD_LABELS.barcode,
  university_name: { en: "University", tr: "Üniversite" },
  faculty_name: { en: "Faculty", tr: "Fakülte" },
  program_name: { en: "Programme", tr: "Program" },
  graduated_at: { en: "Graduated on", tr: "Mezuniyet Tarihi" },
  diploma_grade: { en: "Diploma grade", tr: "Diploma Notu" },
  diploma_number: { en: "Diploma number", tr: "Diploma No" },
  graduation_status: { en: "Graduation status", tr: "Mezuniyet Durumu" },
  is_graduated: { en: "Graduated", tr: "Mezun" },
};

/** The YÖK graduate certificate: `yok_graduate.v1`. */
export const yokGraduateLayout: CertificateLayout<"yok_graduate.v1", YokGraduateFields> = {
  schema: "yok_graduate.v1",
  fieldsSchema: yokGraduateFieldsSchema,
  labels: LABELS,
  fieldLabels: FIELD_LABELS,
  read,
  subject: (fields) => ({ full_name: fields.full_name, birth_date: fields.birth_date }),
};
