/**
 * Property tests of the two layouts: a certificate rendered as messily as real text layers are
 * (random case, Turkish letters or their ASCII look-alikes in labels, the colon there or not,
 * values split into runs, lines in any order, sometimes a value on the next line) reads back
 * to the fields it was made from; and no text at all makes a reader throw.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gsbKykDormLayout } from "#shared/domain/certificates/gsb-kyk-dorm";
import { yokStudentLayout } from "#shared/domain/certificates/yok-student";
import { LOOK_ALIKES, messyLines } from "./arbitraries.ts";

type Gen = fc.GeneratorValue;

/** The labels each field may be printed with, as the model certificates and their variants show them. */
const YOK = {
  full_name: ["Adı Soyadı"],
  first_name: ["Adı"],
  last_name: ["Soyadı"],
  father_name: ["Baba Adı"],
  mother_name: ["Anne Adı"],
  birth_date: ["Doğum Tarihi"],
  nationality: ["Uyruğu"],
  registered_at: ["Kayıt Tarihi"],
  education_type: ["Öğrenim Türü"],
  education_duration_years: ["Öğrenim Süresi"],
  student_status: ["Öğrencilik Durumu"],
  class_year: ["Sınıfı"],
  unit: ["Birimi"],
  university_name: ["Üniversite"],
  faculty_name: ["Fakülte", "Fakülte / Yüksekokul", "Enstitü"],
  department_name: ["Bölüm"],
  program_name: ["Program"],
  identity_number: ["T.C. Kimlik No"],
  barcode: ["Barkod No", "Belge Doğrulama Kodu"],
};
const DORM = {
  first_name: ["Adı"],
  last_name: ["Soyadı"],
  father_name: ["Baba Adı"],
  mother_name: ["Anne Adı"],
  birth_date: ["Doğum Tarihi"],
  city: ["İl"],
  district: ["İlçe"],
  dorm_name: ["Yurt Adı"],
  registered_at: ["Yurda Giriş Tarihi"],
  accommodation: ["Yurtta Kalma Durumu"],
  identity_number: ["T.C. Kimlik No"],
  barcode: ["Barkod No", "Belge Doğrulama Kodu"],
};

/**
 * A word as a reader tolerant of look-alikes sees it: `Adİ` and `ADI` are the label `Adı`.
 * Written here from the look-alike table, not taken from the reader.
 */
const asLabelWord = (text: string) =>
  [...text]
    .map((char) => LOOK_ALIKES[char] ?? char)
    .join("")
    .toLowerCase();
/** Words of labels: a value starting with one, printed without a colon, would read as a longer label. */
const LABEL_WORDS = new Set(
  [...Object.values(YOK), ...Object.values(DORM)]
    .flat()
    .flatMap((label) => label.split(" "))
    .map(asLabelWord),
);
const TURKISH_LETTERS = [..."ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZabcçdefgğhıijklmnoöprsştuüvyz"];
const NOISE = [
  "T.C.",
  "YÜKSEKÖĞRETİM KURULU BAŞKANLIĞI",
  "GENÇLİK VE SPOR BAKANLIĞI",
  "ÖĞRENCİ BELGESİ",
  "Bu belge 5070 sayılı Elektronik İmza Kanunu gereğince güvenli elektronik imza ile imzalanmıştır.",
  "Belgenin doğruluğunu www.turkiye.gov.tr adresinden kontrol edebilirsiniz.",
];
const TCKN = "10000000146";
const BARCODE = "ABCD-1234-EFGH";

const word = fc
  .string({ unit: fc.constantFrom(...TURKISH_LETTERS), minLength: 2, maxLength: 10 })
  .filter((text) => !LABEL_WORDS.has(asLabelWord(text)));
const words = (max = 4) => fc.array(word, { minLength: 1, maxLength: max }).map((list) => list.join(" "));
const named = (suffix: string) => words(3).map((text) => `${text} ${suffix}`);
const validDate = fc
  .record({
    year: fc.integer({ min: 1950, max: 2030 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
  })
  .filter(({ year, month, day }) => new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day);

/** What a reader should return for a value as printed: trimmed, runs of spaces collapsed. */
const asPrinted = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim();

/** A character in random case, sometimes as its ASCII look-alike. */
function messChar(g: Gen, char: string): string {
  const options = [
    char,
    char.toUpperCase(),
    char.toLowerCase(),
    char.toLocaleUpperCase("tr-TR"),
    char.toLocaleLowerCase("tr-TR"),
  ];
  const look = LOOK_ALIKES[char];
  if (look) options.push(look, look.toUpperCase(), look.toLowerCase());
  return g(fc.constantFrom, ...options);
}

function messLabel(g: Gen, label: string): string {
  const spaced = label
    .split(" ")
    .map((part) => [...part].map((char) => messChar(g, char)).join(""))
    .map((part, i) => (i === 0 ? part : `${g(fc.constantFrom, " ", "  ")}${part}`));
  return spaced.join("");
}

/** A value split into text runs: words joined by one to three spaces. */
function runs(g: Gen, value: string): string {
  return value
    .split(" ")
    .map((part, i) => (i === 0 ? part : `${g(fc.constantFrom, " ", "  ", "   ")}${part}`))
    .join("");
}

function printDate(g: Gen, date: { year: number; month: number; day: number }): string {
  const pad = (n: number) => (g(fc.boolean) ? String(n).padStart(2, "0") : String(n));
  const dot = () => g(fc.constantFrom, ".", ". ", " .", ".");
  return `${pad(date.day)}${dot()}${pad(date.month)}${dot()}${date.year}`;
}

/** One `label : value` pair as lines: the label messy, the colon optional, sometimes the value on the next line. */
function pair(g: Gen, labels: readonly string[], value: string): string[] {
  const label = messLabel(g, g(fc.constantFrom, ...labels));
  const indent = g(fc.constantFrom, "", " ", "  ");
  const end = g(fc.constantFrom, "", " ", "  ");
  if (g(fc.integer, { min: 0, max: 9 }) === 0) {
    return [`${indent}${label}${g(fc.constantFrom, "", " :", ":")}`, `${indent}${value}${end}`];
  }
  const separator = g(fc.constantFrom, " : ", ": ", ":", " :", "  :  ", "\t:", " ", "   ", "\t");
  return [`${indent}${label}${separator}${value}${end}`];
}

/** Whether an optional field is printed, and a required one (mostly). */
const printed = (g: Gen, required: boolean) => g(fc.integer, { min: 0, max: 9 }) < (required ? 9 : 7);

/** Blocks of lines in random order, with noise lines and the keys among them. */
function shuffled(g: Gen, blocks: string[][]): string[] {
  const keys = [pair(g, ["T.C. Kimlik No"], TCKN), pair(g, ["Barkod No", "Belge Doğrulama Kodu"], BARCODE)];
  const noise = g(fc.subarray, NOISE).map((line) => [line]);
  const all = [...blocks, ...keys, ...noise];
  return g(fc.shuffledSubarray, all, { minLength: all.length, maxLength: all.length }).flat();
}

/** `expect(actual).toEqual(expected)`, paying for vitest's matcher only when it fails (properties run it hundreds of times). */
function expectEqual(actual: unknown, expected: unknown, message: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}

function required<Fields extends Record<string, unknown>>(fields: Fields, names: readonly (keyof Fields & string)[]) {
  return names.filter((name) => fields[name] === null);
}

/** The university, faculty, department and program: one path of two to four parts (perhaps wrapped), or a line each; as read. */
function yokUnits(
  g: Gen,
  blocks: string[][],
  value: (labels: readonly string[], printedValue: string) => string,
  optional: <T>(isRequired: boolean, make: () => T) => T | null,
): {
  university_name: string | null;
  faculty_name: string | null;
  department_name: string | null;
  program_name: string | null;
} {
  const unit = {
    university: g(named, "ÜNİVERSİTESİ"),
    faculty: g(named, "FAKÜLTESİ"),
    department: g(named, "BÖLÜMÜ"),
    program: g(named, "PROGRAMI"),
  };
  if (g(fc.boolean)) {
    const shape = g(fc.constantFrom, "four", "three", "two");
    const parts =
      shape === "four"
        ? [unit.university, unit.faculty, unit.department, unit.program]
        : shape === "three"
          ? [unit.university, unit.faculty, unit.program]
          : [unit.university, unit.program];
    const joined = parts
      .map((part) => runs(g, part))
      .map((part, i) => (i === 0 ? part : `${g(fc.constantFrom, " / ", "/", " /", "/ ", "  /  ")}${part}`));
    if (g(fc.boolean) && parts.length > 2) {
      // A long path wrapped after a slash.
      const [firstLine, ...rest] = pair(g, YOK.unit, `${joined.slice(0, 2).join("")} /`);
      blocks.push([
        ...(firstLine === undefined ? [] : [firstLine]),
        ...rest,
        joined
          .slice(2)
          .join("")
          .replace(/^\s*\/\s*/, ""),
      ]);
    } else {
      blocks.push(pair(g, YOK.unit, joined.join("")));
    }
    return {
      university_name: asPrinted(unit.university),
      faculty_name: parts.length > 2 ? asPrinted(unit.faculty) : null,
      department_name: parts.length > 3 ? asPrinted(unit.department) : null,
      program_name: asPrinted(unit.program),
    };
  } else {
    return {
      university_name: optional(true, () => value(YOK.university_name, unit.university)),
      faculty_name: optional(false, () => value(YOK.faculty_name, unit.faculty)),
      department_name: optional(false, () => value(YOK.department_name, unit.department)),
      program_name: optional(true, () => value(YOK.program_name, unit.program)),
    };
  }
}

/** The YÖK layout reads `lines` as `expected`, never yields the identity number, and names what is missing. */
function expectYokReading(lines: string[], expected: Record<string, unknown>): void {
  const reading = yokStudentLayout.read(lines, BARCODE);
  expectEqual(reading.fields, expected, lines.join("\n"));
  if (JSON.stringify(reading.fields).includes(TCKN)) expect.fail("the identity number was yielded");
  expectEqual(
    reading.incomplete,
    required(expected, [
      "full_name",
      "birth_date",
      "registered_at",
      "student_status",
      "class_year",
      "university_name",
      "program_name",
      "barcode",
    ]),
    lines.join("\n"),
  );
}

describe("the YÖK student layout reads any messy rendering of a certificate", () => {
  it("returns the fields it was rendered from", () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const blocks: string[][] = [];
        const value = (labels: readonly string[], printedValue: string) => {
          blocks.push(pair(g, labels, runs(g, printedValue)));
          return asPrinted(printedValue);
        };
        const optional = <T>(isRequired: boolean, make: () => T): T | null => (printed(g, isRequired) ? make() : null);

        const full_name = optional(true, () => {
          const first = g(words);
          const last = g(words, 2);
          if (g(fc.boolean)) return value(YOK.full_name, `${first} ${last}`);
          return `${value(YOK.first_name, first)} ${value(YOK.last_name, last)}`;
        });
        const mother_name = optional(false, () => value(YOK.mother_name, g(words)));
        const father_name = optional(false, () => value(YOK.father_name, g(words)));
        const date = (labels: readonly string[]) => {
          const d = g(() => validDate);
          blocks.push(pair(g, labels, printDate(g, d)));
          return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
        };
        const birth_date = optional(true, () => date(YOK.birth_date));
        const registered_at = optional(true, () => date(YOK.registered_at));
        const nationality = optional(false, () =>
          value(YOK.nationality, g(fc.constantFrom, "T.C.", "TÜRKİYE", "Türk")),
        );
        const education_type = optional(false, () =>
          value(YOK.education_type, g(fc.constantFrom, "Örgün Öğretim", "İkinci Öğretim", "Uzaktan Öğretim")),
        );
        const education_duration_years = optional(false, () => {
          const years = g(fc.integer, { min: 1, max: 9 });
          value(
            YOK.education_duration_years,
            g(fc.constantFrom, `${years}`, `${years} Yıl`, `${years} YIL`, `${years} yil`),
          );
          return years;
        });
        const status = optional(true, () =>
          g(
            fc.constantFrom,
            ...([
              ["Aktif", true],
              ["Aktif Öğrenci", true],
              ["Mezun", false],
              ["Kaydı Silindi", false],
              ["Pasif", false],
              ["Dondurulmuş", false],
            ] as const),
          ),
        );
        const student_status =
          status && value(YOK.student_status, [...status[0]].map((char) => messChar(g, char)).join(""));
        const class_year = optional(true, () => {
          const year = g(fc.integer, { min: 0, max: 8 });
          const text =
            year === 0
              ? g(fc.constantFrom, "Hazırlık", "HAZIRLIK", "Hazırlık Sınıfı")
              : g(fc.constantFrom, `${year}`, `${year}. Sınıf`, `${year}.SINIF`, `${year} . sınıf`);
          value(YOK.class_year, text);
          return year;
        });

        const units = yokUnits(g, blocks, value, optional);

        const lines = shuffled(g, blocks);
        const expected = {
          full_name,
          mother_name,
          father_name,
          birth_date,
          nationality,
          registered_at,
          education_type,
          education_duration_years,
          student_status: student_status ?? null,
          is_active: status ? status[1] : null,
          class_year,
          ...units,
          barcode: BARCODE,
        };
        expectYokReading(lines, expected);
      }),
      { numRuns: 200, seed: 248927349 },
    );
  });
});

describe("the KYK dormitory layout reads any messy rendering of a certificate", () => {
  it("returns the fields it was rendered from", () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const blocks: string[][] = [];
        const value = (labels: readonly string[], printedValue: string) => {
          blocks.push(pair(g, labels, runs(g, printedValue)));
          return asPrinted(printedValue);
        };
        const optional = <T>(isRequired: boolean, make: () => T): T | null => (printed(g, isRequired) ? make() : null);
        const date = (labels: readonly string[]) => {
          const d = g(() => validDate);
          blocks.push(pair(g, labels, printDate(g, d)));
          return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
        };
        const status = optional(true, () =>
          g(
            fc.constantFrom,
            ...([
              ["Kalıyor", true],
              ["Yurtta Kalıyor", true],
              ["Ayrıldı", false],
              ["Kalmıyor", false],
            ] as const),
          ),
        );
        if (status) value(DORM.accommodation, [...status[0]].map((char) => messChar(g, char)).join(""));
        const expected = {
          first_name: optional(true, () => value(DORM.first_name, g(words))),
          last_name: optional(true, () => value(DORM.last_name, g(words, 2))),
          mother_name: optional(false, () => value(DORM.mother_name, g(words))),
          father_name: optional(false, () => value(DORM.father_name, g(words))),
          birth_date: optional(true, () => date(DORM.birth_date)),
          city: optional(false, () => value(DORM.city, g(words, 2))),
          district: optional(false, () => value(DORM.district, g(words, 2))),
          dorm_name: optional(true, () => value(DORM.dorm_name, g(named, "KYK YURDU"))),
          registered_at: optional(false, () => date(DORM.registered_at)),
          is_accommodated: status ? status[1] : null,
          barcode: BARCODE,
        };
        const lines = shuffled(g, blocks);
        const reading = gsbKykDormLayout.read(lines, BARCODE);
        expectEqual(reading.fields, expected, lines.join("\n"));
        if (JSON.stringify(reading.fields).includes(TCKN)) expect.fail("the identity number was yielded");
        expectEqual(
          reading.incomplete,
          required(expected, ["first_name", "last_name", "birth_date", "dorm_name", "is_accommodated", "barcode"]),
          lines.join("\n"),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("the layouts on any text", () => {
  for (const layout of [yokStudentLayout, gsbKykDormLayout]) {
    it(`${layout.schema} never throws, and yields fields its schema accepts`, () => {
      fc.assert(
        fc.property(messyLines, fc.oneof(fc.constant(BARCODE), fc.string()), (lines, barcode) => {
          const { fields, incomplete } = layout.read(lines, barcode);
          const nulls = Object.entries(fields as Record<string, unknown>)
            .filter(([, value]) => value === null)
            .map(([name]) => name);
          return layout.fieldsSchema.safeParse(fields).success && incomplete.every((name) => nulls.includes(name));
        }),
        { numRuns: 300 },
      );
    });
  }
});
