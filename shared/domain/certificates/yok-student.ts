/**
 * The YÖK student certificate (Öğrenci Belgesi) as e-Devlet prints it; its rule (the student is
 * active) is in the registry.
 */
import * as z from "../zod.ts";
import { BARCODE_PATTERN, isBarcode, KEY_LABELS } from "./keys.ts";
import { readLabelled } from "./labels.ts";
import { type CertificateLayout, type FieldLabels, missing, PERSON_FIELD_LABELS } from "./layout.ts";
import { collapseWhitespace } from "./turkish.ts";
import { isoDate, parsed, printedCount, statusIs } from "./values.ts";

const LABELS = {
  full_name: ["Adı Soyadı", "Adı ve Soyadı", "Ad Soyad"],
  first_name: ["Adı"],
  last_name: ["Soyadı"],
  father_name: ["Baba Adı"],
  mother_name: ["Anne Adı"],
  birth_date: ["Doğum Tarihi"],
  nationality: ["Uyruğu", "Uyruk"],
  registered_at: ["Kayıt Tarihi"],
  education_type: ["Öğrenim Türü"],
  education_duration_years: ["Öğrenim Süresi"],
  student_status: ["Öğrencilik Durumu", "Öğrenci Durumu"],
  class_year: ["Sınıfı", "Sınıf"],
  unit_path: ["Birimi", "Birim"],
  university_name: ["Üniversite", "Üniversite Adı"],
  faculty_name: [
    "Fakülte",
    "Fakülte / Yüksekokul",
    "Fakülte / Enstitü / Yüksekokul",
    "Fakülte / Enstitü",
    "Fakülte Adı",
    "Enstitü",
    "Yüksekokul",
  ],
  department_name: ["Bölüm", "Bölümü", "Bölüm Adı"],
  program_name: ["Program", "Programı", "Program Adı"],
  ...KEY_LABELS,
} as const;

/** Status texts that mean an active student; `Mezun`, `Pasif` and anything else do not. */
const ACTIVE = ["Aktif", "Aktif Öğrenci"];
/** `Hazırlık` (the preparatory year) is class 0. */
const PREPARATORY = ["Hazırlık", "Hazırlık Sınıfı"];

const text = (description: string) => z.nullable(z.string()).check(z.describe(description));
const date = (description: string) => z.nullable(z.iso.date()).check(z.describe(`${description}, \`YYYY-MM-DD\``));

export const yokStudentFieldsSchema = z
  .strictObject({
    full_name: text("`Adı Soyadı`, or `Adı` and `Soyadı` joined, as printed. Required"),
    mother_name: text("`Anne Adı`, as printed"),
    father_name: text("`Baba Adı`, as printed"),
    birth_date: date("`Doğum Tarihi`. Required"),
    nationality: text("`Uyruğu`, as printed"),
    registered_at: date("`Kayıt Tarihi`: when the student enrolled. Required"),
    education_type: text("`Öğrenim Türü`, as printed, e.g. `Örgün Öğretim`"),
    education_duration_years: z
      .nullable(z.int().check(z.gte(1)))
      .check(z.describe("`Öğrenim Süresi`: the programme's length in years (`4` or `4 Yıl` -> 4)")),
    student_status: text("`Öğrencilik Durumu`, as printed, e.g. `Aktif Öğrenci`. Required"),
    is_active: z
      .nullable(z.boolean())
      .check(
        z.describe(
          "Whether `student_status` means active (`Aktif` or `Aktif Öğrenci`); null when no status is printed",
        ),
      ),
    class_year: z
      .nullable(z.int().check(z.gte(0)))
      .check(z.describe("`Sınıfı`: `3` or `3. Sınıf` -> 3, `Hazırlık` (the preparatory year) -> 0. Required")),
    university_name: text("The university, from `Birimi` or `Üniversite`. Required"),
    faculty_name: text("The faculty, institute or school, from `Birimi` or `Fakülte`, `Enstitü`, `Yüksekokul`"),
    department_name: text("The department, from `Birimi` or `Bölüm`"),
    program_name: text("The programme, from `Birimi` or `Program`. Required"),
    barcode: z
      .nullable(z.string().check(z.regex(BARCODE_PATTERN)))
      .check(z.describe("The e-Devlet barcode number the certificate was verified with. Required")),
  })
  .check(z.describe("Fields of a YÖK student certificate; null where the certificate does not print them"));

export type YokStudentFields = z.infer<typeof yokStudentFieldsSchema>;

const REQUIRED = [
  "full_name",
  "birth_date",
  "registered_at",
  "student_status",
  "class_year",
  "university_name",
  "program_name",
  "barcode",
] as const satisfies readonly (keyof YokStudentFields)[];

interface UnitPath {
  university?: string;
  faculty?: string;
  department?: string;
  program?: string;
}

/**
 * The `Üniversite / Fakülte / Bölüm / Program` path of a `Birimi` line. The first part is
 * always the university and the last the programme, the most specific unit a student enrols
 * in; the second is the faculty. With more than four parts, the ones between the faculty and
 * the programme make the department (`Bölüm / Anabilim Dalı`); with three, there is no
 * department; with two, no faculty either; with one, only the university is known.
 */
export function splitUnitPath(path: string): UnitPath {
  const parts = path
    .split("/")
    .map(collapseWhitespace)
    .filter((part) => part !== "");
  const [university, ...rest] = parts;
  const program = rest.pop();
  const [faculty, ...between] = rest;
  return {
    university,
    faculty,
    department: between.length > 0 ? between.join(" / ") : undefined,
    program,
  };
}

function classYear(printed: string): number | undefined {
  return statusIs(printed, PREPARATORY) ? 0 : printedCount(printed, ["sinif", "sinifi"]);
}

function read(lines: readonly string[], barcode: string) {
  const printed = readLabelled(lines, LABELS);
  // Separate labelled lines are more specific than the path, so they win field by field.
  const path = printed.unit_path === undefined ? {} : splitUnitPath(printed.unit_path);
  const joinedName =
    printed.first_name !== undefined && printed.last_name !== undefined
      ? `${printed.first_name} ${printed.last_name}`
      : undefined;
  const status = printed.student_status;
  const fields: YokStudentFields = {
    full_name: printed.full_name ?? joinedName ?? null,
    mother_name: printed.mother_name ?? null,
    father_name: printed.father_name ?? null,
    birth_date: parsed(printed.birth_date, isoDate),
    nationality: printed.nationality ?? null,
    registered_at: parsed(printed.registered_at, isoDate),
    education_type: printed.education_type ?? null,
    education_duration_years: parsed(printed.education_duration_years, (value) => printedCount(value, ["yil"])),
    student_status: status ?? null,
    is_active: status === undefined ? null : statusIs(status, ACTIVE),
    class_year: parsed(printed.class_year, classYear),
    university_name: printed.university_name ?? path.university ?? null,
    faculty_name: printed.faculty_name ?? path.faculty ?? null,
    department_name: printed.department_name ?? path.department ?? null,
    program_name: printed.program_name ?? path.program ?? null,
    barcode: isBarcode(barcode) ? barcode : null,
  };
  return { fields, incomplete: missing(fields, REQUIRED) };
}

/** Each field's label on the pages. */
const FIELD_LABELS: FieldLabels<YokStudentFields> = {
  full_name: PERSON_FIELD_LABELS.full_name,
  mother_name: PERSON_FIELD_LABELS.mother_name,
  father_name: PERSON_FIELD_LABELS.father_name,
  birth_date: PERSON_FIELD_LABELS.birth_date,
  barcode: PERSON_FIELD_LABELS.barcode,
  nationality: { en: "Nationality", tr: "Uyruğu" },
  registered_at: { en: "Enrolled on", tr: "Kayıt Tarihi" },
  education_type: { en: "Education type", tr: "Öğrenim Türü" },
  education_duration_years: { en: "Programme length (years)", tr: "Öğrenim Süresi (yıl)" },
  student_status: { en: "Student status", tr: "Öğrencilik Durumu" },
  is_active: { en: "Active student", tr: "Aktif öğrenci" },
  class_year: { en: "Class year", tr: "Sınıf" },
  university_name: { en: "University", tr: "Üniversite" },
  faculty_name: { en: "Faculty", tr: "Fakülte" },
  department_name: { en: "Department", tr: "Bölüm" },
  program_name: { en: "Programme", tr: "Program" },
};

/** The YÖK student certificate: `yok_student.v1`. */
export const yokStudentLayout: CertificateLayout<"yok_student.v1", YokStudentFields> = {
  schema: "yok_student.v1",
  fieldsSchema: yokStudentFieldsSchema,
  labels: LABELS,
  fieldLabels: FIELD_LABELS,
  read,
  subject: (fields) => ({ full_name: fields.full_name, birth_date: fields.birth_date }),
};
