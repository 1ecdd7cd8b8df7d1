import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collapseWhitespace, foldTurkish, sameName } from "#shared/domain/certificates/turkish";
import { anyText, LOOK_ALIKES, messyLine } from "./arbitraries.ts";

const TURKISH_ALPHABET = [..."abcçdefgğhıijklmnoöprsştuüvyzABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ"];

describe("foldTurkish", () => {
  it("folds the four Turkish i's and the other Turkish letters to ASCII", () => {
    expect(foldTurkish("İIıi")).toBe("iiii");
    expect(foldTurkish("ŞşĞğÜüÖöÇç")).toBe("ssgguuoocc");
    expect(foldTurkish("ISPARTA ıspanak İSTANBUL")).toBe("isparta ispanak istanbul");
  });

  it("lower-cases other letters and keeps digits and punctuation", () => {
    expect(foldTurkish("ÉCOLE Straße 3.")).toBe("ecole straße 3.");
  });

  it("removes combining marks, whether the text is composed or decomposed", () => {
    const composed = "ÇAĞLA ÖZGÜR".normalize("NFC");
    const decomposed = "ÇAĞLA ÖZGÜR".normalize("NFD");
    expect(decomposed).not.toBe(composed);
    expect(foldTurkish(decomposed)).toBe("cagla ozgur");
    expect(foldTurkish(composed)).toBe("cagla ozgur");
    expect(foldTurkish("i\u0307")).toBe("i");
  });

  it("collapses whitespace of every kind and trims", () => {
    expect(foldTurkish("  AYŞE\t\u00a0 YILMAZ \n")).toBe("ayse yilmaz");
    expect(collapseWhitespace("  Ayşe   Yılmaz ")).toBe("Ayşe Yılmaz");
  });

  it("keeps letters that differ apart", () => {
    expect(foldTurkish("AYŞE")).not.toBe(foldTurkish("AYŞA"));
    expect(foldTurkish("ÖZ")).not.toBe(foldTurkish("UZ"));
  });

  it("is idempotent on any text", () => {
    fc.assert(
      fc.property(fc.oneof(anyText, messyLine), (text) => {
        const folded = foldTurkish(text);
        return foldTurkish(folded) === folded;
      }),
      { numRuns: 1000 },
    );
  });

  it("equates a Turkish text with its ASCII look-alike in any case and spacing", () => {
    const turkishText = fc.array(fc.constantFrom(...TURKISH_ALPHABET, " "), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(turkishText, fc.infiniteStream(fc.integer({ min: 0, max: 3 })), (chars, choices) => {
        const original = chars.join("");
        const lookAlike = chars
          .map((char) => {
            const choice = choices.next().value;
            const ascii = LOOK_ALIKES[char] ?? char;
            return [ascii, ascii.toUpperCase(), ascii.toLowerCase(), char === " " ? "  " : char][choice];
          })
          .join("");
        expect(foldTurkish(lookAlike)).toBe(foldTurkish(original));
      }),
    );
  });

  it("folds to ASCII every text written in the Turkish alphabet", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...TURKISH_ALPHABET, " ") }), (text) => {
        expect(foldTurkish(text)).toMatch(/^[a-z ]*$/);
      }),
    );
  });
});

describe("sameName", () => {
  it("matches names across case, Turkish letters and spacing", () => {
    expect(sameName("AYŞE  YILMAZ", "ayse yılmaz")).toBe(true);
    expect(sameName("İSMAİL ÇELİK", "Ismail Celik")).toBe(true);
    expect(sameName(" Işıl Öztürk ", "ISIL OZTURK")).toBe(true);
  });

  it("refuses another name", () => {
    expect(sameName("AYŞE YILMAZ", "AYŞE YILDIZ")).toBe(false);
    expect(sameName("AYŞE YILMAZ", "AYŞEYILMAZ")).toBe(false);
    expect(sameName("AYŞE YILMAZ", "YILMAZ AYŞE")).toBe(false);
  });
});
