import { describe, expect, it } from "vitest";
import { isoDate, parsed, printedCount, statusIs } from "#shared/domain/certificates/values";

describe("isoDate", () => {
  it("turns DD.MM.YYYY into YYYY-MM-DD", () => {
    expect(isoDate("01.09.2021")).toBe("2021-09-01");
    expect(isoDate("31.12.1999")).toBe("1999-12-31");
  });

  it("reads dates split into runs, without leading zeros, or with / and -", () => {
    expect(isoDate(" 01 .09. 2021 ")).toBe("2021-09-01");
    expect(isoDate("1.9.2021")).toBe("2021-09-01");
    expect(isoDate("01/09/2021")).toBe("2021-09-01");
    expect(isoDate("01-09-2021")).toBe("2021-09-01");
  });

  it("knows leap years", () => {
    expect(isoDate("29.02.2024")).toBe("2024-02-29");
    expect(isoDate("29.02.2000")).toBe("2000-02-29");
    expect(isoDate("29.02.2023")).toBeUndefined();
    expect(isoDate("29.02.1900")).toBeUndefined();
  });

  it("refuses impossible dates and other shapes", () => {
    for (const text of [
      "31.04.2021",
      "00.01.2021",
      "01.00.2021",
      "01.13.2021",
      "32.01.2021",
      "01.01.1899",
      "01.01.21",
      "2021-09-01",
      "01.09.2021 tarihinde",
      "",
      "bir ocak",
    ]) {
      expect(isoDate(text), text).toBeUndefined();
    }
  });
});

describe("printedCount", () => {
  it("reads a digit alone or with one of its words, with or without a dot", () => {
    expect(printedCount("4", ["yil"])).toBe(4);
    expect(printedCount("4 Yıl", ["yil"])).toBe(4);
    expect(printedCount("4 YIL", ["yil"])).toBe(4);
    expect(printedCount("3. Sınıf", ["sinif"])).toBe(3);
    expect(printedCount("3.sınıf", ["sinif"])).toBe(3);
    expect(printedCount(" 3 . SINIF ", ["sinif"])).toBe(3);
  });

  it("refuses other words, zero, more digits and no digit", () => {
    expect(printedCount("4 Ay", ["yil"])).toBeUndefined();
    expect(printedCount("0", ["yil"])).toBeUndefined();
    expect(printedCount("12", ["yil"])).toBeUndefined();
    expect(printedCount("Dört Yıl", ["yil"])).toBeUndefined();
    expect(printedCount("Yıl 4", ["yil"])).toBeUndefined();
  });
});

describe("statusIs", () => {
  it("matches a status across case, Turkish letters and spacing, and nothing else", () => {
    expect(statusIs("AKTİF  ÖĞRENCİ", ["Aktif Öğrenci"])).toBe(true);
    expect(statusIs("aktif ogrenci", ["Aktif Öğrenci"])).toBe(true);
    expect(statusIs("Aktif Öğrenci Değil", ["Aktif Öğrenci"])).toBe(false);
    expect(statusIs("Pasif", ["Aktif"])).toBe(false);
  });
});

describe("parsed", () => {
  it("is null when nothing is printed or the value does not parse", () => {
    expect(parsed(undefined, isoDate)).toBeNull();
    expect(parsed("31.02.2020", isoDate)).toBeNull();
    expect(parsed("28.02.2020", isoDate)).toBe("2020-02-28");
  });
});
