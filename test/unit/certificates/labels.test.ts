import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLabelled } from "#shared/domain/certificates/labels";
import { messyLines } from "./arbitraries.ts";

const LABELS = {
  full_name: ["Adı Soyadı"],
  first_name: ["Adı"],
  last_name: ["Soyadı"],
  father_name: ["Baba Adı"],
  mother_name: ["Anne Adı"],
  city: ["İl"],
  district: ["İlçe"],
  registered_at: ["Kayıt Tarihi"],
  moved_in_at: ["Yurda Giriş Tarihi"],
  identity_number: ["T.C. Kimlik No"],
  faculty: ["Fakülte", "Fakülte / Yüksekokul"],
  unit: ["Birimi"],
} as const;

const read = (...lines: string[]) => readLabelled(lines, LABELS);

describe("readLabelled", () => {
  it("reads label : value lines in any order", () => {
    expect(read("Soyadı : YILMAZ", "Adı : AYŞE")).toEqual({ first_name: "AYŞE", last_name: "YILMAZ" });
  });

  it("reads the colon missing, tight or surrounded by spaces", () => {
    for (const line of ["Adı AYŞE", "Adı:AYŞE", "Adı : AYŞE", "Adı  :   AYŞE", "Adı\t:AYŞE", "Adı: AYŞE"]) {
      expect(read(line), line).toEqual({ first_name: "AYŞE" });
    }
  });

  it("reads labels in any case, with Turkish letters or their ASCII look-alikes", () => {
    for (const line of ["ADI : AYŞE", "adı : AYŞE", "ADİ : AYŞE", "Adi : AYŞE", "ADI : AYŞE", "aDı : AYŞE"]) {
      expect(read(line), line).toEqual({ first_name: "AYŞE" });
    }
    expect(read("ILCE : CANKAYA", "il : ANKARA")).toEqual({ city: "ANKARA", district: "CANKAYA" });
    expect(read("YURDA GİRİŞ TARİHİ : 01.09.2024")).toEqual({ moved_in_at: "01.09.2024" });
    expect(read("yurda giris tarihi : 01.09.2024")).toEqual({ moved_in_at: "01.09.2024" });
  });

  it("reads labels whose text layer is decomposed", () => {
    expect(read("Adı Soyadı : AYŞE".normalize("NFD"))).toEqual({ full_name: "AYŞE" });
  });

  it("returns values as printed, trimmed, with runs of spaces collapsed", () => {
    expect(read("Adı Soyadı :   Ayşe    Nur   Yılmaz  ")).toEqual({ full_name: "Ayşe Nur Yılmaz" });
    expect(read("Adı Soyadı : ayse yilmaz")).toEqual({ full_name: "ayse yilmaz" });
  });

  it("takes the longest label at the start of a line", () => {
    expect(read("Adı Soyadı : AYŞE YILMAZ")).toEqual({ full_name: "AYŞE YILMAZ" });
    expect(read("Adı Soyadı AYŞE YILMAZ")).toEqual({ full_name: "AYŞE YILMAZ" });
    expect(read("Baba Adı : MEHMET", "Anne Adı : FATMA")).toEqual({ father_name: "MEHMET", mother_name: "FATMA" });
    expect(read("İlçe : ÇANKAYA")).toEqual({ district: "ÇANKAYA" });
    expect(read("Fakülte / Yüksekokul : MÜHENDİSLİK FAKÜLTESİ")).toEqual({ faculty: "MÜHENDİSLİK FAKÜLTESİ" });
    expect(read("Fakülte/Yüksekokul: MÜHENDİSLİK FAKÜLTESİ")).toEqual({ faculty: "MÜHENDİSLİK FAKÜLTESİ" });
  });

  it("matches labels only at the start of a line and at a word boundary", () => {
    expect(read("Yurda Giriş Tarihi : 01.09.2024")).toEqual({ moved_in_at: "01.09.2024" });
    expect(read("Adil : AYŞE", "Adres : Ankara", "İlk satır")).toEqual({});
    expect(read("ÖĞRENCİ BELGESİ Adı")).toEqual({});
  });

  it("does not read a longer label across a space within its word", () => {
    expect(read("İl ÇE KÖYÜ")).toEqual({ city: "ÇE KÖYÜ" });
  });

  it("matches labels with punctuation and spaces between words left out or doubled", () => {
    for (const line of ["T.C. Kimlik No : 1", "TC KIMLIK NO : 1", "T.C.Kimlik No: 1", "T. C.  Kimlik  No 1"]) {
      expect(read(line), line).toEqual({ identity_number: "1" });
    }
  });

  it("reads a value from the next line when the label line has nothing after it", () => {
    expect(read("Adı Soyadı :", "  AYŞE   YILMAZ ", "Baba Adı : MEHMET")).toEqual({
      full_name: "AYŞE YILMAZ",
      father_name: "MEHMET",
    });
    expect(read("Adı Soyadı", "AYŞE YILMAZ")).toEqual({ full_name: "AYŞE YILMAZ" });
  });

  it("does not take a next line that starts with a label as a value", () => {
    expect(read("Anne Adı :", "Baba Adı : MEHMET")).toEqual({ father_name: "MEHMET" });
  });

  it("treats a dash or dots as a blank value", () => {
    expect(read("Anne Adı : -", "Baba Adı : ...", "İl : ANKARA")).toEqual({ city: "ANKARA" });
  });

  it("continues a path that ends with / on the next line", () => {
    expect(read("Birimi : ANKARA ÜNİVERSİTESİ / TIP", "FAKÜLTESİ")).toEqual({ unit: "ANKARA ÜNİVERSİTESİ / TIP" });
    expect(read("Birimi : ANKARA ÜNİVERSİTESİ /", "TIP FAKÜLTESİ / TIP PROGRAMI")).toEqual({
      unit: "ANKARA ÜNİVERSİTESİ / TIP FAKÜLTESİ / TIP PROGRAMI",
    });
  });

  it("reads a second pair on a line when its label has a colon, and keeps label words without one", () => {
    expect(read("Adı : AYŞE   Soyadı : YILMAZ")).toEqual({ first_name: "AYŞE", last_name: "YILMAZ" });
    expect(read("Tarih 01.01.2024  T.C. Kimlik No: 1")).toEqual({ identity_number: "1" });
    expect(read("Adı Soyadı : AYŞE İl YILMAZ")).toEqual({ full_name: "AYŞE İl YILMAZ" });
  });

  it("keeps the first printed value of a field", () => {
    expect(read("Adı : -", "Adı : AYŞE", "Adı : FATMA")).toEqual({ first_name: "AYŞE" });
  });

  it("never throws, and returns only the table's keys with printed values", () => {
    const keys = new Set(Object.keys(LABELS));
    fc.assert(
      fc.property(messyLines, (lines) => {
        const values = readLabelled(lines, LABELS);
        return Object.entries(values).every(
          ([key, value]) => keys.has(key) && typeof value === "string" && value === value.trim() && value !== "",
        );
      }),
      { numRuns: 300 },
    );
  });
});
