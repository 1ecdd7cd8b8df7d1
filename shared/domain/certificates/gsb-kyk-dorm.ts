/**
 * The KYK dormitory certificate (GSB Yurt Belgesi) as e-Devlet prints it; its rule (the student
 * is accommodated) is in the registry.
 */
import * as z from "../zod.ts";
import { BARCODE_PATTERN, isBarcode, KEY_LABELS } from "./keys.ts";
import { readLabelled } from "./labels.ts";
import { type CertificateLayout, type FieldLabels, missing, PERSON_FIELD_LABELS } from "./layout.ts";
import { isoDate, parsed, statusIs } from "./values.ts";

const LABELS = {
  first_name: ["Adı"],
  last_name: ["Soyadı"],
  // Not a field of this layout: known only so that `Adı` does not read `Soyadı : ...` as a first
  // name. A name printed this way is not split, since given names and surnames both may have
  // several words; the certificate then goes to review.
  full_name: ["Adı Soyadı", "Adı ve Soyadı", "Ad Soyad"],
  father_name: ["Baba Adı"],
  mother_name: ["Anne Adı"],
  birth_date: ["Doğum Tarihi"],
  city: ["İl"],
  district: ["İlçe"],
  dorm_name: ["Yurt Adı", "Kaldığı Yurt"],
  registered_at: ["Yurda Giriş Tarihi", "Yurt Giriş Tarihi"],
  accommodation: ["Yurtta Kalma Durumu", "Kalma Durumu"],
  ...KEY_LABELS,
} as const;

/** Texts of `Yurtta Kalma Durumu` that mean accommodated; `Ayrıldı`, `Kalmıyor` and anything else do not. */
const ACCOMMODATED = ["Kalıyor", "Yurtta Kalıyor"];

const text = (description: string) => z.nullable(z.string()).check(z.describe(description));

export const gsbKykDormFieldsSchema = z
  .strictObject({
    first_name: text("`Adı`, as printed. Required"),
    last_name: text("`Soyadı`, as printed. Required"),
    mother_name: text("`Anne Adı`, as printed"),
    father_name: text("`Baba Adı`, as printed"),
    birth_date: z.nullable(z.iso.date()).check(z.describe("`Doğum Tarihi`, `YYYY-MM-DD`. Required")),
    city: text("`İl`: the dormitory's province, as printed"),
    district: text("`İlçe`: the dormitory's district, as printed"),
    dorm_name: text("`Yurt Adı`, as printed. Required"),
    registered_at: z
      .nullable(z.iso.date())
      .check(z.describe("`Yurda Giriş Tarihi`: when the student moved in, `YYYY-MM-DD`")),
    is_accommodated: z
      .nullable(z.boolean())
      .check(
        z.describe(
          "Whether `Yurtta Kalma Durumu` says the student lives there (`Kalıyor` or `Yurtta Kalıyor`); null when it is not printed. Required",
        ),
      ),
    barcode: z
      .nullable(z.string().check(z.regex(BARCODE_PATTERN)))
      .check(z.describe("The e-Devlet barcode number the certificate was verified with. Required")),
  })
  .check(z.describe("Fields of a KYK dormitory certificate; null where the certificate does not print them"));

export type GsbKykDormFields = z.infer<typeof gsbKykDormFieldsSchema>;

const REQUIRED = [
  "first_name",
  "last_name",
  "birth_date",
  "dorm_name",
  "is_accommodated",
  "barcode",
] as const satisfies readonly (keyof GsbKykDormFields)[];

function read(lines: readonly string[], barcode: string) {
  const printed = readLabelled(lines, LABELS);
  const fields: GsbKykDormFields = {
    first_name: printed.first_name ?? null,
    last_name: printed.last_name ?? null,
    mother_name: printed.mother_name ?? null,
    father_name: printed.father_name ?? null,
    birth_date: parsed(printed.birth_date, isoDate),
    city: printed.city ?? null,
    district: printed.district ?? null,
    dorm_name: printed.dorm_name ?? null,
    registered_at: parsed(printed.registered_at, isoDate),
    is_accommodated: parsed(printed.accommodation, (status) => statusIs(status, ACCOMMODATED)),
    barcode: isBarcode(barcode) ? barcode : null,
  };
  return { fields, incomplete: missing(fields, REQUIRED) };
}

/** Each field's label on the pages. */
const FIELD_LABELS: FieldLabels<GsbKykDormFields> = {
  first_name: PERSON_FIELD_LABELS.first_name,
  last_name: PERSON_FIELD_LABELS.last_name,
  mother_name: PERSON_FIELD_LABELS.mother_name,
  father_name: PERSON_FIELD_LABELS.father_name,
  birth_date: PERSON_FIELD_LABELS.birth_date,
  barcode: PERSON_FIELD_LABELS.barcode,
  city: { en: "City", tr: "İl" },
  district: { en: "District", tr: "İlçe" },
  dorm_name: { en: "Dormitory", tr: "Yurt" },
  registered_at: { en: "Enrolled on", tr: "Kayıt Tarihi" },
  is_accommodated: { en: "Staying in the dormitory", tr: "Yurtta kalıyor" },
};

/** The KYK dormitory certificate: `gsb_kyk_dorm.v1`. */
export const gsbKykDormLayout: CertificateLayout<"gsb_kyk_dorm.v1", GsbKykDormFields> = {
  schema: "gsb_kyk_dorm.v1",
  fieldsSchema: gsbKykDormFieldsSchema,
  labels: LABELS,
  fieldLabels: FIELD_LABELS,
  read,
  subject: (fields) => ({
    full_name:
      fields.first_name !== null && fields.last_name !== null ? `${fields.first_name} ${fields.last_name}` : null,
    birth_date: fields.birth_date,
  }),
};
