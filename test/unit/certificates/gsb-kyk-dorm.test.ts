import { describe, expect, it } from "vitest";
import { gsbKykDormLayout } from "#shared/domain/certificates/gsb-kyk-dorm";
import { registryEntry } from "#shared/domain/document-registry";

const rule = registryEntry("GSB_KYK_DORM").rule;
if (rule === null) throw new Error("GSB_KYK_DORM has a rule");

const BARCODE = "GSB-KYK-98765";

/** A certificate as the model layout prints it. */
const CERTIFICATE = [
  "T.C.",
  "GENÇLİK VE SPOR BAKANLIĞI",
  "YURT BELGESİ",
  "T.C. Kimlik No : 10000000146",
  "Adı : İSMAİL",
  "Soyadı : ÇELİK",
  "Baba Adı : HASAN",
  "Anne Adı : GÜLŞEN",
  "Doğum Tarihi : 29.02.2004",
  "İl : İSTANBUL",
  "İlçe : ŞİŞLİ",
  "Yurt Adı : İSTANBUL ŞİŞLİ KYK ERKEK ÖĞRENCİ YURDU",
  "Yurda Giriş Tarihi : 20.09.2022",
  "Yurtta Kalma Durumu : Yurtta Kalıyor",
  `Belge Doğrulama Kodu : ${BARCODE}`,
];

const COMPLETE = {
  first_name: "İSMAİL",
  last_name: "ÇELİK",
  mother_name: "GÜLŞEN",
  father_name: "HASAN",
  birth_date: "2004-02-29",
  city: "İSTANBUL",
  district: "ŞİŞLİ",
  dorm_name: "İSTANBUL ŞİŞLİ KYK ERKEK ÖĞRENCİ YURDU",
  registered_at: "2022-09-20",
  is_accommodated: true,
  barcode: BARCODE,
};

const read = (lines: string[], barcode = BARCODE) => gsbKykDormLayout.read(lines, barcode);
const without = (...labels: string[]) =>
  CERTIFICATE.filter((line) => !labels.some((label) => line.startsWith(`${label} :`)));

describe("the KYK dormitory layout", () => {
  it("reads every field of a complete certificate", () => {
    expect(read(CERTIFICATE)).toEqual({ fields: COMPLETE, incomplete: [] });
    expect(gsbKykDormLayout.fieldsSchema.parse(COMPLETE)).toEqual(COMPLETE);
  });

  it("never yields the identity number", () => {
    expect(JSON.stringify(read(CERTIFICATE))).not.toContain("10000000146");
  });

  it("reads a messy text layer in ASCII look-alikes", () => {
    const lines = [
      "yurtta kalma durumu KALIYOR",
      "YURDA GIRIS TARIHI:20.09.2022",
      "YURT ADI",
      "ISTANBUL SISLI KYK ERKEK OGRENCI YURDU",
      "ILCE : SISLI",
      "IL ISTANBUL",
      "dogum tarihi 29 .02.2004",
      "anne adi : GÜLŞEN",
      "baba adi : HASAN",
      "soyadi:ÇELİK",
      "adi  :  İSMAİL",
    ];
    expect(read(lines)).toEqual({
      fields: {
        ...COMPLETE,
        city: "ISTANBUL",
        district: "SISLI",
        dorm_name: "ISTANBUL SISLI KYK ERKEK OGRENCI YURDU",
      },
      incomplete: [],
    });
  });

  it("reads the accommodation rule: Kalıyor and Yurtta Kalıyor mean accommodated, anything else not", () => {
    for (const [status, accommodated] of [
      ["Kalıyor", true],
      ["YURTTA KALIYOR", true],
      ["yurtta kaliyor", true],
      ["Ayrıldı", false],
      ["Kalmıyor", false],
      ["Yurttan Ayrıldı", false],
    ] as const) {
      const { fields, incomplete } = read([...without("Yurtta Kalma Durumu"), `Yurtta Kalma Durumu : ${status}`]);
      expect(fields.is_accommodated, status).toBe(accommodated);
      expect(rule.passes(fields), status).toBe(accommodated);
      expect(incomplete).toEqual([]);
    }
  });

  it("names each missing required field, and leaves optional ones null", () => {
    const { fields, incomplete } = read(
      without("Adı", "Soyadı", "Doğum Tarihi", "Yurt Adı", "Yurtta Kalma Durumu"),
      "",
    );
    expect(incomplete).toEqual(["first_name", "last_name", "birth_date", "dorm_name", "is_accommodated", "barcode"]);
    expect(fields.is_accommodated).toBeNull();
    expect(rule.passes(fields)).toBe(false);
    const optionalGone = read(without("Baba Adı", "Anne Adı", "İl", "İlçe", "Yurda Giriş Tarihi"));
    expect(optionalGone.incomplete).toEqual([]);
    expect(optionalGone.fields).toMatchObject({ father_name: null, city: null, district: null, registered_at: null });
  });

  it("names a malformed birth date and reads an impossible entry date as not printed", () => {
    const lines = [
      ...without("Doğum Tarihi", "Yurda Giriş Tarihi"),
      "Doğum Tarihi : 29.02.2003",
      "Yurda Giriş Tarihi : 31.09.2022",
    ];
    const { fields, incomplete } = read(lines);
    expect(incomplete).toEqual(["birth_date"]);
    expect(fields).toMatchObject({ birth_date: null, registered_at: null });
  });

  it("does not read a combined name as a first name", () => {
    const { fields, incomplete } = read([...without("Adı", "Soyadı"), "Adı Soyadı : İSMAİL ÇELİK"]);
    expect(fields).toMatchObject({ first_name: null, last_name: null });
    expect(incomplete).toEqual(["first_name", "last_name"]);
  });

  it("does not take Kayıt Tarihi for Yurda Giriş Tarihi", () => {
    const { fields } = read([...without("Yurda Giriş Tarihi"), "Kayıt Tarihi : 01.01.2020"]);
    expect(fields.registered_at).toBeNull();
  });

  it("gives the subject for subject_match", () => {
    expect(gsbKykDormLayout.subject(COMPLETE)).toEqual({ full_name: "İSMAİL ÇELİK", birth_date: "2004-02-29" });
    expect(gsbKykDormLayout.subject({ ...COMPLETE, last_name: null }).full_name).toBeNull();
  });

  it("describes the rule", () => {
    expect(gsbKykDormLayout.schema).toBe("gsb_kyk_dorm.v1");
    expect(registryEntry("GSB_KYK_DORM").rule).toMatchObject({
      check: "student_accommodated",
      reasonCode: "student_not_accommodated",
    });
  });
});
