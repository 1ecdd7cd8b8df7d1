import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  documentKeys,
  isBarcode,
  isIdentityNumber,
  maskIdentityNumber,
  recordedKeys,
} from "#shared/domain/certificates/keys";
import { messyLines, messyQrPayload } from "./arbitraries.ts";

/** A published test identity number that passes the checksum. */
const TCKN = "10000000146";
const OTHER_TCKN = withCheckDigits("2345678901");

/** The first nine digits of `base`, completed with the two check digits the official rule gives. */
function withCheckDigits(base: string): string {
  const d = [...base.slice(0, 9)].map(Number) as number[];
  const sum = (positions: number[]) => positions.reduce((total, p) => total + (d[p] ?? 0), 0);
  const tenth = (((sum([0, 2, 4, 6, 8]) * 7 - sum([1, 3, 5, 7])) % 10) + 10) % 10;
  const eleventh = (sum([0, 1, 2, 3, 4, 5, 6, 7, 8]) + tenth) % 10;
  return `${base.slice(0, 9)}${tenth}${eleventh}`;
}

const keys = (lines: string[], qrCodes: string[] = []) => documentKeys({ lines, qrCodes });

describe("isIdentityNumber", () => {
  it("accepts numbers that pass the checksum", () => {
    expect(isIdentityNumber(TCKN)).toBe(true);
    expect(isIdentityNumber(OTHER_TCKN)).toBe(true);
  });

  it("refuses a wrong tenth or eleventh digit, a leading 0 and other lengths", () => {
    expect(isIdentityNumber("10000000156")).toBe(false);
    expect(isIdentityNumber("10000000147")).toBe(false);
    expect(isIdentityNumber(`0${TCKN.slice(1)}`)).toBe(false);
    expect(isIdentityNumber(withCheckDigits("0123456789"))).toBe(false);
    expect(isIdentityNumber(TCKN.slice(0, 10))).toBe(false);
    expect(isIdentityNumber(`${TCKN}0`)).toBe(false);
    expect(isIdentityNumber("1000000014a")).toBe(false);
  });

  it("accepts every number built by the rule and refuses it with any one digit changed", () => {
    const base = fc.stringMatching(/^[1-9][0-9]{8}$/);
    fc.assert(
      fc.property(base, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 9 }), (nine, at, shift) => {
        const number = withCheckDigits(nine);
        const digits = [...number];
        digits[at] = String((Number(digits[at]) + shift) % 10);
        return isIdentityNumber(number) && !isIdentityNumber(digits.join(""));
      }),
    );
  });
});

describe("isBarcode", () => {
  it("accepts 8 to 40 upper-case letters, digits and hyphens", () => {
    expect(isBarcode("ABCD1234")).toBe(true);
    expect(isBarcode("YOK-ABCD-1234-EFGH")).toBe(true);
    expect(isBarcode("A".repeat(40))).toBe(true);
  });

  it("refuses shorter, longer, lower-case or other characters", () => {
    expect(isBarcode("ABC1234")).toBe(false);
    expect(isBarcode("A".repeat(41))).toBe(false);
    expect(isBarcode("abcd1234")).toBe(false);
    expect(isBarcode("ABCD_1234")).toBe(false);
    expect(isBarcode("ABCD 1234")).toBe(false);
    expect(isBarcode("ŞABCD1234")).toBe(false);
  });
});

describe("documentKeys from the text layer", () => {
  it("reads the barcode after Barkod No or Belge Doğrulama Kodu, and the identity number", () => {
    expect(keys(["T.C. Kimlik No : 10000000146", "Barkod No : YOK-ABCD-1234"])).toEqual({
      barcode: "YOK-ABCD-1234",
      identityNumber: TCKN,
    });
    expect(keys(["BELGE DOĞRULAMA KODU: ABCD1234EF"])).toEqual({ barcode: "ABCD1234EF" });
    expect(keys(["belge dogrulama kodu ABCD1234EF"])).toEqual({ barcode: "ABCD1234EF" });
    expect(keys(["TC KIMLIK NO 10000000146"])).toEqual({ identityNumber: TCKN });
  });

  it("upper-cases the barcode and joins runs split by spaces", () => {
    expect(keys(["Barkod No : yok-abcd-1234"])).toEqual({ barcode: "YOK-ABCD-1234" });
    expect(keys(["Barkod No : YOK-ABCD  1234 EFGH"])).toEqual({ barcode: "YOK-ABCD1234EFGH" });
    expect(keys(["T.C. Kimlik No : 100 000 001 46"])).toEqual({ identityNumber: TCKN });
  });

  it("reads the keys beside other text on the line, or on the next line", () => {
    expect(keys(["Tarih : 01.01.2024   Barkod No : ABCD1234 Sayfa 1/1"])).toEqual({ barcode: "ABCD1234" });
    expect(keys(["Barkod No", "ABCD1234", "T.C. Kimlik No :", TCKN])).toEqual({
      barcode: "ABCD1234",
      identityNumber: TCKN,
    });
  });

  it("refuses malformed values", () => {
    expect(keys(["Barkod No : ABC-12", "T.C. Kimlik No : 10000000147"])).toEqual({});
    expect(keys(["Barkod No : ABCD_1234_EFGH"])).toEqual({});
    expect(keys(["Barkod numarası ile sorgulayabilirsiniz"])).toEqual({});
  });

  it("finds nothing in a document without the labels", () => {
    expect(keys(["ABCD1234", TCKN, "Adı Soyadı : AYŞE YILMAZ"])).toEqual({});
  });
});

describe("documentKeys from QR codes", () => {
  it("reads the barcode from each query name, in any case, and the identity number from tckn", () => {
    for (const name of ["barkod", "belgeNo", "barcode", "BARKOD", "belgeno"]) {
      const url = `https://www.turkiye.gov.tr/belge-dogrulama?${name}=ABCD1234&tckn=${TCKN}`;
      expect(keys([], [url]), name).toEqual({ barcode: "ABCD1234", identityNumber: TCKN });
    }
  });

  it("decodes URL-encoded values and upper-cases the barcode", () => {
    expect(keys([], [`https://x.example/d?barkod=yok%2Dabcd%2D1234&tckn=%31${TCKN.slice(1)}#top`])).toEqual({
      barcode: "YOK-ABCD-1234",
      identityNumber: TCKN,
    });
  });

  it("reads a link without a scheme, and a bare barcode", () => {
    expect(keys([], ["turkiye.gov.tr/belge-dogrulama?belgeNo=ABCD1234"])).toEqual({ barcode: "ABCD1234" });
    expect(keys([], ["  abcd-1234-efgh  "])).toEqual({ barcode: "ABCD-1234-EFGH" });
  });

  it("refuses a checksum failure, a malformed barcode and other payloads", () => {
    expect(keys([], ["https://x.example/d?barkod=AB&tckn=10000000147"])).toEqual({});
    expect(keys([], ["https://x.example/d?code=ABCD1234&id=10000000146"])).toEqual({});
    expect(keys([], ["https://www.turkiye.gov.tr/"])).toEqual({});
    expect(keys([], ["WIFI:S:network;T:WPA;P:secret;;"])).toEqual({});
  });

  it("takes the first well-formed value over the QR codes in order", () => {
    expect(keys([], ["nothing here", "https://x.example/?barkod=FIRST-123", "SECOND-123"])).toEqual({
      barcode: "FIRST-123",
    });
  });
});

describe("documentKeys from both", () => {
  it("prefers the text layer and lets the QR code fill what the text lacks", () => {
    const qr = `https://x.example/?barkod=QRCODE-123&tckn=${OTHER_TCKN}`;
    expect(keys(["Barkod No : TEXT-1234", `T.C. Kimlik No : ${TCKN}`], [qr])).toEqual({
      barcode: "TEXT-1234",
      identityNumber: TCKN,
    });
    expect(keys(["Barkod No : TEXT-1234"], [qr])).toEqual({ barcode: "TEXT-1234", identityNumber: OTHER_TCKN });
    expect(keys([`T.C. Kimlik No : ${TCKN}`], [qr])).toEqual({ barcode: "QRCODE-123", identityNumber: TCKN });
  });

  it("falls back to the QR code when the printed value is malformed", () => {
    expect(keys(["T.C. Kimlik No : 10000000147"], [`https://x.example/?tckn=${OTHER_TCKN}`])).toEqual({
      identityNumber: OTHER_TCKN,
    });
  });

  it("never throws, and what it returns is well formed", () => {
    fc.assert(
      fc.property(messyLines, fc.array(messyQrPayload, { maxLength: 4 }), (lines, qrCodes) => {
        const found = documentKeys({ lines, qrCodes });
        return (
          (found.barcode === undefined || isBarcode(found.barcode)) &&
          (found.identityNumber === undefined || isIdentityNumber(found.identityNumber))
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("maskIdentityNumber", () => {
  it("keeps the first two and the last two digits and hides the seven between", () => {
    expect(maskIdentityNumber(TCKN)).toBe("10*******46");
    expect(maskIdentityNumber(OTHER_TCKN)).toBe(`23*******${OTHER_TCKN.slice(-2)}`);
  });

  it("never shows the middle digits of any identity number", () => {
    const numbers = fc.stringMatching(/^[1-9][0-9]{8}$/).map(withCheckDigits);
    fc.assert(
      fc.property(numbers, (number) => {
        const masked = maskIdentityNumber(number);
        expect(masked).toMatch(/^[0-9]{2}\*{7}[0-9]{2}$/);
        expect(masked.slice(0, 2) + masked.slice(-2)).toBe(number.slice(0, 2) + number.slice(-2));
      }),
    );
  });

  it("hides all of a value too short to keep four digits of", () => {
    expect(maskIdentityNumber("1234")).toBe("****");
    expect(maskIdentityNumber("12345")).toBe("12*45");
  });
});

describe("recordedKeys", () => {
  it("keeps the barcode and the identity number masked, null for what was not read", () => {
    expect(recordedKeys({ barcode: "TESTYOK-0001-AKTIF", identityNumber: TCKN })).toEqual({
      barcode: "TESTYOK-0001-AKTIF",
      identity_number_masked: "10*******46",
    });
    expect(recordedKeys({ barcode: "TESTYOK-0001-AKTIF" })).toEqual({
      barcode: "TESTYOK-0001-AKTIF",
      identity_number_masked: null,
    });
    expect(recordedKeys({})).toEqual({ barcode: null, identity_number_masked: null });
  });
});
