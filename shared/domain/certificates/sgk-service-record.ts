/**
 * The SGK service record (Tescil ve Hizmet Dökümü) of the Social Security Institution as
 * e-Devlet prints it: since when the person is insured, for how many days, and where last.
 */
import * as z from "../zod.ts";
import { BARCODE_PATTERN, isBarcode, KEY_LABELS } from "./keys.ts";
import { readLabelled } from "./labels.ts";
import { type CertificateLayout, type FieldLabels, missing, PERSON_FIELD_LABELS } from "./layout.ts";
import { isoDate, parsed } from "./values.ts";

const LABELS = {
  full_name: ["Adı Soyadı", "Adı ve Soyadı", "Ad Soyad"],
  father_name: ["Baba Adı"],
  birth_date: ["Doğum Tarihi"],
  insurance_type: ["Sigortalılık Türü", "Sigortalılık Statüsü"],
  first_registered_at: ["İlk İşe Giriş Tarihi", "Sigortalılık Başlangıç Tarihi"],
  total_insured_days: ["Toplam Prim Gün Sayısı", "Toplam Gün Sayısı", "Toplam Gün"],
  latest_employer: ["Son İşyeri Unvanı", "Son İşyeri", "İşyeri Unvanı"],
  latest_employment_started_at: ["Son İşe Giriş Tarihi"],
  ...KEY_LABELS,
} as const;

const text = (description: string) => z.nullable(z.string()).check(z.describe(description));
const date = (description: string) => z.nullable(z.iso.date()).check(z.describe(`${description}, \`YYYY-MM-DD\``));

export const sgkServiceRecordFieldsSchema = z
  .strictObject({
    full_name: text("`Adı Soyadı`, as printed. Required"),
    father_name: text("`Baba Adı`, as printed"),
    birth_date: date("`Doğum Tarihi`. Required"),
    insurance_type: text("`Sigortalılık Türü`, as printed, e.g. `4/a`"),
    first_registered_at: date("`İlk İşe Giriş Tarihi`: when the person was first insured"),
    total_insured_days: z
      .nullable(z.int().check(z.gte(0)))
      .check(
        z.describe(
          "`Toplam Prim Gün Sayısı`: the days insured in all, digits only (`2.340` or `2340` -> 2340). Required",
        ),
      ),
    latest_employer: text("`Son İşyeri Unvanı`: the latest employer's name, as printed. Required"),
    latest_employment_started_at: date("`Son İşe Giriş Tarihi`: when the latest employment started"),
    barcode: z
      .nullable(z.string().check(z.regex(BARCODE_PATTERN)))
      .check(z.describe("The e-Devlet barcode number the record was verified with. Required")),
  })
  .check(z.describe("Fields of an SGK service record; null where the record does not print them"));

export type SgkServiceRecordFields = z.infer<typeof sgkServiceRecordFieldsSchema>;

const REQUIRED = [
  "full_name",
  "birth_date",
  "total_insured_days",
  "latest_employer",
  "barcode",
] as const satisfies readonly (keyof SgkServiceRecordFields)[];

/** Each field's label on the pages. */
const FIELD_LABELS: FieldLabels<SgkServiceRecordFields> = {
  full_name: PERSON_FIELD_LABELS.full_name,
  father_name: PERSON_FIELD_LABELS.father_name,
  birth_date: PERSON_FIELD_LABELS.birth_date,
  barcode: PERSON_FIELD_LABELS.barcode,
  insurance_type: { en: "Insurance type", tr: "Sigortalılık Türü" },
  first_registered_at: { en: "First insured on", tr: "İlk İşe Giriş Tarihi" },
  total_insured_days: { en: "Days insured in all", tr: "Toplam Prim Gün Sayısı" },
  latest_employer: { en: "Latest employer", tr: "Son İşyeri Unvanı" },
  latest_employment_started_at: { en: "Latest employment since", tr: "Son İşe Giriş Tarihi" },
};

/** A day count as printed: digits with `.` between thousands (`2.340`), at most 6 digits in all. */
function dayCount(printed: string): number | undefined {
  const compact = printed.replace(/\s+/g, "");
  return /^(\d{1,3}(\.\d{3})?|\d{1,6})$/.test(compact) ? Number(compact.replace(".", "")) : undefined;
}

function read(lines: readonly string[], barcode: string) {
  const printed = readLabelled(lines, LABELS);
  const fields: SgkServiceRecordFields = {
    full_name: printed.full_name ?? null,
    father_name: printed.father_name ?? null,
    birth_date: parsed(printed.birth_date, isoDate),
    insurance_type: printed.insurance_type ?? null,
    first_registered_at: parsed(printed.first_registered_at, isoDate),
    total_insured_days: parsed(printed.total_insured_days, dayCount),
    latest_employer: printed.latest_employer ?? null,
    latest_employment_started_at: parsed(printed.latest_employment_started_at, isoDate),
    barcode: isBarcode(barcode) ? barcode : null,
  };
  return { fields, incomplete: missing(fields, REQUIRED) };
}

/** The SGK service record: `sgk_service_record.v1`. */
export const sgkServiceRecordLayout: CertificateLayout<"sgk_service_record.v1", SgkServiceRecordFields> = {
  schema: "sgk_service_record.v1",
  fieldsSchema: sgkServiceRecordFieldsSchema,
  labels: LABELS,
  fieldLabels: FIELD_LABELS,
  read,
  subject: (fields) => ({ full_name: fields.full_name, birth_date: fields.birth_date }),
};
