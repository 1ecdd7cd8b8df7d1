/**
 * Text for the certificate readers' never-throw properties: any code point (lone surrogates
 * included), mixed with the letters, marks, separators and label words the readers react to,
 * so that random lines often look almost like a certificate.
 */
import fc from "fast-check";

const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));
const reactive = fc.constantFrom(" ", "  ", "\t", ":", "/", ".", "-", "İ", "ı", "I", "Ş", "ğ", "\u0307", "\u0327", "%");
const labelish = fc.constantFrom(
  "Adı",
  "Soyadı",
  "Adı Soyadı",
  "Barkod No",
  "T.C. Kimlik No",
  "Birimi",
  "Doğum Tarihi",
  "Kayıt Tarihi",
  "Sınıfı",
  "Öğrencilik Durumu",
  "Yurtta Kalma Durumu",
  "İl",
  "İlçe",
  "Hazırlık",
  "Aktif",
  "Kalıyor",
  "10000000146",
  "ABCD-1234",
  "29.02.2024",
  "?barkod=",
  "&tckn=",
);

/** One messy line. */
export const messyLine = fc.string({ unit: fc.oneof(anyCodePoint, reactive, labelish), maxLength: 40 });

/** A messy document: its lines. */
export const messyLines = fc.array(messyLine, { maxLength: 12 });

/** Any text, down to single code points. */
export const anyText = fc.string({ unit: anyCodePoint, maxLength: 40 });

/**
 * A QR payload: mostly e-Devlet's app payload with messy pairs or a verification link with
 * messy query values, sometimes anything.
 */
export const messyQrPayload = fc.oneof(
  messyLine,
  fc
    .tuple(
      fc.constantFrom("barkodlubelgedogrulama://", "BarkodluBelgeDogrulama:// ", ""),
      fc.array(
        fc.tuple(
          fc.constantFrom("barkod", "TCKN", " tckn ", "https", ""),
          fc.oneof(messyLine, fc.constant(" 10000000146")),
        ),
        { maxLength: 4 },
      ),
    )
    .map(([scheme, pairs]) => `${scheme}${pairs.map(([name, value]) => `${name}:${value}`).join(";")}`),
  fc
    .tuple(
      fc.constantFrom("https://www.turkiye.gov.tr/belge-dogrulama?", "turkiye.gov.tr/d?", "?", "https://x.example/#?"),
      fc.array(
        fc.tuple(
          fc.constantFrom("barkod", "belgeNo", "barcode", "BARKOD", "tckn", "other", ""),
          fc.oneof(messyLine, fc.constantFrom("yok%2Dabcd%2D1234", "%E0%A4%A", "10000000146", "%ZZ")),
        ),
        { maxLength: 4 },
      ),
    )
    .map(([prefix, parameters]) => `${prefix}${parameters.map(([name, value]) => `${name}=${value}`).join("&")}`),
);

/** Turkish letters and the ASCII letter a keyboard without them types instead. */
export const LOOK_ALIKES: Record<string, string> = {
  ç: "c",
  Ç: "C",
  ğ: "g",
  Ğ: "G",
  ı: "i",
  İ: "I",
  ö: "o",
  Ö: "O",
  ş: "s",
  Ş: "S",
  ü: "u",
  Ü: "U",
};
