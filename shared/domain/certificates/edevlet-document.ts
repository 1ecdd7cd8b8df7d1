/**
 * Any e-Devlet barcoded document, read for its authenticity only: its barcode, its heading,
 * its issue date and the holder's name where they are printed.
 */
import * as z from "../zod.ts";
import { issueDate } from "./issue-date.ts";
import { BARCODE_PATTERN, isBarcode, KEY_LABELS } from "./keys.ts";
import { type LabelTable, readLabelled } from "./labels.ts";
import { type CertificateLayout, type FieldLabels, missing, PERSON_FIELD_LABELS } from "./layout.ts";
import { collapseWhitespace } from "./turkish.ts";
import { parsed } from "./values.ts";

/** The issue date's labels: e-Devlet documents print one of these. */
export const EDEVLET_ISSUE_DATE_LABELS = [
  "Belge Tarihi",
  "Düzenlenme Tarihi",
  "Düzenleme Tarihi",
  "Oluşturulma Tarihi",
  "Döküm Tarihi",
] as const;

const LABELS = {
  full_name: ["Adı Soyadı", "Adı ve Soyadı", "Ad Soyad"],
  issued_at: EDEVLET_ISSUE_DATE_LABELS,
  ...KEY_LABELS,
} as const satisfies LabelTable<string>;

export const edevletDocumentFieldsSchema = z
  .strictObject({
    barcode: z
      .nullable(z.string().check(z.regex(BARCODE_PATTERN)))
      .check(z.describe("The e-Devlet barcode number the document was verified with. Required")),
    title: z
      .nullable(z.string())
      .check(
        z.describe(
          "The document's heading: the last line above its first labelled line, as printed (e.g. `ÖĞRENCİ BELGESİ`). Required",
        ),
      ),
    issued_at: z
      .nullable(z.iso.date())
      .check(
        z.describe("The issue date (`Belge Tarihi`, `Düzenlenme Tarihi`, ...), `YYYY-MM-DD`; null when not printed"),
      ),
    full_name: z.nullable(z.string()).check(z.describe("`Adı Soyadı`, as printed; null when not labelled")),
  })
  .check(z.describe("Fields of any e-Devlet barcoded document: only what every one of them may print"));

export type EdevletDocumentFields = z.infer<typeof edevletDocumentFieldsSchema>;

const REQUIRED = ["barcode", "title"] as const satisfies readonly (keyof EdevletDocumentFields)[];

const HAS_LETTER = /\p{L}/u;

/** Each field's label on the pages. */
const FIELD_LABELS: FieldLabels<EdevletDocumentFields> = {
  full_name: PERSON_FIELD_LABELS.full_name,
  barcode: PERSON_FIELD_LABELS.barcode,
  title: { en: "Document title", tr: "Belge Başlığı" },
  issued_at: { en: "Issued on", tr: "Belge Tarihi" },
};

/** The heading: the last line with letters above the first line that starts with a label. */
function heading(lines: readonly string[]): string | null {
  let last: string | null = null;
  for (const line of lines) {
    if (Object.keys(readLabelled([line], LABELS)).length > 0) return last;
    const text = collapseWhitespace(String(line));
    if (HAS_LETTER.test(text)) last = text;
  }
  return null;
}

function read(lines: readonly string[], barcode: string) {
  const printed = readLabelled(lines, LABELS);
  const fields: EdevletDocumentFields = {
    barcode: isBarcode(barcode) ? barcode : null,
    title: heading(lines),
    issued_at: parsed(printed.issued_at, issueDate),
    full_name: printed.full_name ?? null,
  };
  return { fields, incomplete: missing(fields, REQUIRED) };
}

/** Any e-Devlet barcoded document: `edevlet_document.v1`, who it is about is not read. */
export const edevletDocumentLayout: CertificateLayout<"edevlet_document.v1", EdevletDocumentFields> = {
  schema: "edevlet_document.v1",
  fieldsSchema: edevletDocumentFieldsSchema,
  labels: LABELS,
  fieldLabels: FIELD_LABELS,
  read,
  subject: (fields) => ({ full_name: fields.full_name, birth_date: null }),
};
