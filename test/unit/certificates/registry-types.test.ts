/**
 * The five layouts added with the registry (YOK_GRADUATE, NVI_RESIDENCE, CRIMINAL_RECORD,
 * SGK_SERVICE_RECORD, EDEVLET_DOCUMENT): each reads its model certificate's lines, in upper case
 * and with ASCII labels too, names its missing required fields, decides its rule where it has
 * one and gives its subject; and `issueDateOf` finds each type's issue date.
 */
import { describe, expect, it } from "vitest";
import { issueDateOf, layoutOf, ruleOf } from "#shared/domain/document-layouts";
import { registryEntry } from "#shared/domain/document-registry";
import { DOCUMENT_TYPE_CODES, type DocumentType } from "#shared/domain/document-types";

const BARCODE = "TESTBELGE-0001-ORNEK";

/** Lines as a text layer gives them: labels and values joined by ` : `. */
const lines = (pairs: readonly (readonly [string, string])[]) => pairs.map(([label, value]) => `${label} : ${value}`);

const upper = (text: string) => text.replace(/i/g, "İ").replace(/ı/g, "I").toUpperCase();
const ascii = (text: string) =>
  text.replace(
    /[ıİşŞğĞüÜöÖçÇ]/g,
    (letter) =>
      ({ ı: "i", İ: "I", ş: "s", Ş: "S", ğ: "g", Ğ: "G", ü: "u", Ü: "U", ö: "o", Ö: "O", ç: "c", Ç: "C" })[letter] ??
      letter,
  );

/** The pairs with each label in upper case, and with ASCII look-alikes. */
const variants = (pairs: readonly (readonly [string, string])[]) => [
  lines(pairs),
  lines(pairs.map(([label, value]) => [upper(label), value] as const)),
  lines(pairs.map(([label, value]) => [ascii(label), value] as const)),
];

const read = (type: DocumentType, text: readonly string[], barcode = BARCODE) => layoutOf(type).read(text, barcode);

describe("YOK_GRADUATE", () => {
  const PAIRS = [
    ["T.C. Kimlik No", "10000000146"],
    ["Adı Soyadı", "KEREM MEZUNOĞLU"],
    ["Baba Adı", "SADIK"],
    ["Anne Adı", "FİGEN"],
    ["Doğum Tarihi", "04.04.1998"],
    ["Üniversite", "DENEME ÜNİVERSİTESİ"],
    ["Fakülte / Yüksekokul", "EĞİTİM FAKÜLTESİ"],
    ["Program", "İLKÖĞRETİM MATEMATİK ÖĞRETMENLİĞİ"],
    ["Mezuniyet Tarihi", "28.06.2021"],
    ["Diploma Notu", "3,12"],
    ["Diploma No", "2021-0042"],
    ["Mezuniyet Durumu", "Mezun"],
  ] as const;

  it("reads every field, whatever the labels' case and letters", () => {
    for (const text of variants(PAIRS)) {
      expect(read("YOK_GRADUATE", text)).toEqual({
        fields: {
          full_name: "KEREM MEZUNOĞLU",
          father_name: "SADIK",
          mother_name: "FİGEN",
          birth_date: "1998-04-04",
          university_name: "DENEME ÜNİVERSİTESİ",
          faculty_name: "EĞİTİM FAKÜLTESİ",
          program_name: "İLKÖĞRETİM MATEMATİK ÖĞRETMENLİĞİ",
          graduated_at: "2021-06-28",
          diploma_grade: "3,12",
          diploma_number: "2021-0042",
          graduation_status: "Mezun",
          is_graduated: true,
          barcode: BARCODE,
        },
        incomplete: [],
      });
    }
  });

  it("passes its rule only for a graduate, and names the missing required fields", () => {
    const rule = ruleOf("YOK_GRADUATE");
    expect(rule).toMatchObject({ check: "graduated", reasonCode: "not_graduated" });
    for (const [status, graduated] of [
      ["Mezun", true],
      ["MEZUN OLDU", true],
      ["Mezuniyet Aşamasında", false],
      ["Kaydı Silindi", false],
    ] as const) {
      const { fields } = read("YOK_GRADUATE", lines([...PAIRS.slice(0, -1), ["Mezuniyet Durumu", status]]));
      expect(rule?.passes(fields), status).toBe(graduated);
    }
    const { fields, incomplete } = read("YOK_GRADUATE", lines(PAIRS.slice(0, 5)), "");
    expect(incomplete).toEqual(["university_name", "program_name", "graduation_status", "is_graduated", "barcode"]);
    expect(rule?.passes(fields)).toBe(false);
    expect(layoutOf("YOK_GRADUATE").subject(read("YOK_GRADUATE", lines(PAIRS)).fields)).toEqual({
      full_name: "KEREM MEZUNOĞLU",
      birth_date: "1998-04-04",
    });
  });
});

describe("NVI_RESIDENCE", () => {
  const PAIRS = [
    ["T.C. Kimlik No", "10000000146"],
    ["Adı Soyadı", "HAKAN ADRESLİ"],
    ["Baba Adı", "NURİ"],
    ["Anne Adı", "SEHER"],
    ["Doğum Yeri", "ÇORUM"],
    ["Doğum Tarihi", "12.12.1995"],
    ["Yerleşim Yeri Adresi", "ÖRNEK MAH. DENEME SK. NO: 7 İÇ KAPI NO: 3 ÇANKAYA / ANKARA"],
    ["Adres No", "3000000017"],
    ["Taşınma Tarihi", "01.08.2023"],
    ["Beyan Tarihi", "03.08.2023"],
  ] as const;

  it("reads the address after its heading, whatever the labels' case and letters", () => {
    for (const text of variants(PAIRS)) {
      const heading = ["T.C. İÇİŞLERİ BAKANLIĞI", "YERLEŞİM YERİ VE DİĞER ADRES BELGESİ"];
      expect(read("NVI_RESIDENCE", [...heading, ...text])).toEqual({
        fields: {
          full_name: "HAKAN ADRESLİ",
          father_name: "NURİ",
          mother_name: "SEHER",
          birth_place: "ÇORUM",
          birth_date: "1995-12-12",
          address: "ÖRNEK MAH. DENEME SK. NO: 7 İÇ KAPI NO: 3 ÇANKAYA / ANKARA",
          address_number: "3000000017",
          moved_in_at: "2023-08-01",
          declared_at: "2023-08-03",
          barcode: BARCODE,
        },
        incomplete: [],
      });
    }
  });

  it("has no rule, takes a wrapped address on, and names the missing required fields", () => {
    expect(ruleOf("NVI_RESIDENCE")).toBeNull();
    const wrapped = read("NVI_RESIDENCE", [
      ...lines(PAIRS.slice(0, 6)),
      "Yerleşim Yeri Adresi : ÖRNEK MAH. /",
      "ÇANKAYA / ANKARA",
    ]);
    expect(wrapped.fields.address).toBe("ÖRNEK MAH. / ÇANKAYA / ANKARA");
    const { fields, incomplete } = read("NVI_RESIDENCE", lines([...PAIRS.slice(0, 2), ["Adres No", "12 34"]]));
    expect(incomplete).toEqual(["birth_date", "address"]);
    expect(fields.address_number).toBeNull();
  });
});

describe("CRIMINAL_RECORD", () => {
  const PAIRS = [
    ["T.C. Kimlik No", "10000000146"],
    ["Adı Soyadı", "GÜL TEMİZKAYA"],
    ["Baba Adı", "YAŞAR"],
    ["Anne Adı", "ÜMMÜHAN"],
    ["Doğum Yeri", "SAMSUN"],
    ["Doğum Tarihi", "23.03.1997"],
    ["Belgenin Verileceği Yer", "ÖZEL KURUM"],
    ["Adli Sicil Kaydı", "Adli sicil kaydı yoktur"],
  ] as const;

  it("reads every field, whatever the labels' case and letters", () => {
    for (const text of variants(PAIRS)) {
      expect(read("CRIMINAL_RECORD", text)).toEqual({
        fields: {
          full_name: "GÜL TEMİZKAYA",
          father_name: "YAŞAR",
          mother_name: "ÜMMÜHAN",
          birth_place: "SAMSUN",
          birth_date: "1997-03-23",
          purpose: "ÖZEL KURUM",
          record: "Adli sicil kaydı yoktur",
          has_record: false,
          barcode: BARCODE,
        },
        incomplete: [],
      });
    }
  });

  it("passes its rule only when no record is printed, and sends a certificate without the line to review", () => {
    const rule = ruleOf("CRIMINAL_RECORD");
    expect(rule).toMatchObject({ check: "no_criminal_record", reasonCode: "criminal_record_present" });
    for (const [record, clean] of [
      ["Adli sicil kaydı yoktur", true],
      ["YOKTUR", true],
      ["Adli sicil kaydı vardır", false],
      ["1 karar: hapis cezası", false],
    ] as const) {
      const { fields } = read("CRIMINAL_RECORD", lines([...PAIRS.slice(0, -1), ["Adli Sicil Kaydı", record]]));
      expect(rule?.passes(fields), record).toBe(clean);
    }
    const { fields, incomplete } = read("CRIMINAL_RECORD", lines(PAIRS.slice(0, -1)));
    expect(incomplete).toEqual(["record", "has_record"]);
    expect(rule?.passes(fields)).toBe(false);
  });
});

describe("SGK_SERVICE_RECORD", () => {
  const PAIRS = [
    ["T.C. Kimlik No", "10000000146"],
    ["Adı Soyadı", "SEDA ÇALIŞKANÖRNEK"],
    ["Baba Adı", "İLHAN"],
    ["Doğum Tarihi", "15.05.1992"],
    ["Sigortalılık Türü", "4/a"],
    ["İlk İşe Giriş Tarihi", "02.07.2014"],
    ["Toplam Prim Gün Sayısı", "2.340"],
    ["Son İşyeri Unvanı", "DENEME YAZILIM TİCARET LİMİTED ŞİRKETİ"],
    ["Son İşe Giriş Tarihi", "14.02.2022"],
  ] as const;

  it("reads every field, whatever the labels' case and letters", () => {
    for (const text of variants(PAIRS)) {
      expect(read("SGK_SERVICE_RECORD", text)).toEqual({
        fields: {
          full_name: "SEDA ÇALIŞKANÖRNEK",
          father_name: "İLHAN",
          birth_date: "1992-05-15",
          insurance_type: "4/a",
          first_registered_at: "2014-07-02",
          total_insured_days: 2340,
          latest_employer: "DENEME YAZILIM TİCARET LİMİTED ŞİRKETİ",
          latest_employment_started_at: "2022-02-14",
          barcode: BARCODE,
        },
        incomplete: [],
      });
    }
  });

  it("reads day counts as printed, has no rule, and names a malformed count", () => {
    expect(ruleOf("SGK_SERVICE_RECORD")).toBeNull();
    for (const [printed, days] of [
      ["2340", 2340],
      ["0", 0],
      ["12.345", 12345],
      ["2 340", 2340],
      ["2.34", null],
      ["iki bin", null],
      ["1234567", null],
    ] as const) {
      const { fields } = read("SGK_SERVICE_RECORD", lines([...PAIRS.slice(0, 6), ["Toplam Prim Gün Sayısı", printed]]));
      expect(fields.total_insured_days, printed).toBe(days);
    }
    expect(read("SGK_SERVICE_RECORD", lines(PAIRS.slice(0, 6))).incomplete).toEqual([
      "total_insured_days",
      "latest_employer",
    ]);
  });
});

describe("EDEVLET_DOCUMENT", () => {
  const HEADING = ["T.C.", "MİLLİ EĞİTİM BAKANLIĞI", "ÖĞRENİM BELGESİ"];
  const PAIRS = [
    ["T.C. Kimlik No", "10000000146"],
    ["Adı Soyadı", "MERT LİSELİ"],
    ["Okul Adı", "DENEME ANADOLU LİSESİ"],
    ["Belge Tarihi", "13.01.2026 10:42"],
  ] as const;

  it("reads the barcode, the heading, the issue date and a labelled name", () => {
    expect(read("EDEVLET_DOCUMENT", [...HEADING, ...lines(PAIRS)])).toEqual({
      fields: { barcode: BARCODE, title: "ÖĞRENİM BELGESİ", issued_at: "2026-01-13", full_name: "MERT LİSELİ" },
      incomplete: [],
    });
    expect(ruleOf("EDEVLET_DOCUMENT")).toBeNull();
  });

  it("leaves what is not printed null, and needs a heading and a barcode", () => {
    const bare = read("EDEVLET_DOCUMENT", [...HEADING, "T.C. Kimlik No : 10000000146"]);
    expect(bare.fields).toEqual({ barcode: BARCODE, title: "ÖĞRENİM BELGESİ", issued_at: null, full_name: null });
    expect(read("EDEVLET_DOCUMENT", lines(PAIRS), "").incomplete).toEqual(["barcode", "title"]);
    expect(layoutOf("EDEVLET_DOCUMENT").subject(bare.fields)).toEqual({ full_name: null, birth_date: null });
  });
});

describe("issueDateOf", () => {
  it("reads each type's issue date after any of its labels, with or without a time", () => {
    for (const type of DOCUMENT_TYPE_CODES) {
      for (const label of registryEntry(type).issueDateLabels) {
        for (const printed of [
          "05.01.2026",
          "5.1.2026",
          "05.01.2026 14:05",
          "05.01.2026 14:05:09",
          "05.01.2026 - 14:05",
        ]) {
          expect(
            issueDateOf(type, ["ÖĞRENCİ BELGESİ", `${label} : ${printed}`, "Barkod No : X"]),
            `${type} ${label} ${printed}`,
          ).toBe("2026-01-05");
        }
        expect(issueDateOf(type, [`${upper(label)}: 29.02.2024`]), label).toBe("2024-02-29");
      }
    }
  });

  it("is null when no date is printed, or the date is malformed", () => {
    for (const type of DOCUMENT_TYPE_CODES) {
      expect(issueDateOf(type, ["Adı Soyadı : AYŞE DENEME", "Doğum Tarihi : 14.03.2004"])).toBeNull();
      const label = registryEntry(type).issueDateLabels[0];
      for (const printed of ["31.02.2026", "2026-01-05", "05.01.26", "yarın", "05.01.2026 25"]) {
        expect(issueDateOf(type, [`${label} : ${printed}`]), `${type} ${printed}`).toBeNull();
      }
    }
  });
});
