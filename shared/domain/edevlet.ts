/**
 * e-Devlet's barcode verification ("Barkodlu Belge Doğrulama", edevlet.md): the facts of its
 * two ways in that the adapter asks by and the simulator answers by. Whoever gives a barcode and
 * the holder's T.C. identity number gets e-Devlet's stored copy of the document as a PDF.
 */
import { foldTurkish } from "./certificates/turkish.ts";

export const EDEVLET_DEFAULT_URL = "https://www.turkiye.gov.tr";
export const EDEVLET_DEFAULT_MOBILE_URL = "https://m.turkiye.gov.tr";

/** One budget for a whole lookup, every step and redirect of the form included. */
export const EDEVLET_BUDGET_MS = 15_000;

/**
 * The web form, one session: a session cookie set on the first page and a hidden `token` drawn
 * anew on every page; every POST is form-encoded with the last page's token and the button, and
 * answers `302` to the next page.
 */
export const EDEVLET_FORM = {
  /** Step 1: the form, the session cookie, a token. */
  start: "/belge-dogrulama",
  /** Step 2: the barcode. An unknown one lands on the form again with `NEGATIVE_ANSWERS.unknownBarcode`. */
  barcode: "/belge-dogrulama?submit",
  /** Step 3: the T.C. number; a wrong one is not refused here. */
  identity: "/belge-dogrulama?islem=dogrulama&submit",
  /** Step 4: the consent; a number that is not the holder's lands on `NEGATIVE_ANSWERS.notHolder`. */
  consent: "/belge-dogrulama?islem=onay&submit",
  /** Step 5: the issuer's PDF. */
  document: "/belge-dogrulama?belge=goster&goster=1&display=display",
  fields: {
    token: "token",
    barcode: "sorgulananBarkod",
    identityNumber: "ikinciAlan",
    consent: "chkOnay",
    button: "btn",
  },
  button: "Devam Et",
  /** The session cookie every answer of one flow shares. */
  sessionCookie: "TURKIYESESSIONID",
} as const;

/** The mobile endpoint: `GET /api.php?p=belge-dogrulama&qr=<mobileQr(...)>`, JSON, no login. */
export const EDEVLET_MOBILE = { path: "/api.php", page: "belge-dogrulama" } as const;

/** The `qr` value the mobile endpoint reads: `barkod:<BARCODE>;tckn:<TCKN>;`. */
export function mobileQr(barcode: string, identityNumber: string): string {
  return `barkod:${barcode};tckn:${identityNumber};`;
}

/** The only answers that mean the issuer has no such document for this person. */
export const NEGATIVE_ANSWERS = {
  /** Step 2 of the form, or the mobile endpoint: the barcode is not e-Devlet's. */
  unknownBarcode: "Girilen barkod numarası e-Devlet Kapısında tanımlı değildir.",
  /** Step 4 of the form, or the mobile endpoint: the number is not the document's holder. */
  notHolder: "Kayıt bulunmadı.",
} as const;

const FOLDED_NEGATIVES = Object.values(NEGATIVE_ANSWERS).map((text) => foldTurkish(text).replace(/\.$/, ""));

/**
 * Whether `text` (a page's visible text, or a message) carries one of `NEGATIVE_ANSWERS`,
 * matched without case, with or without Turkish letters, whatever the spacing. Anything else,
 * however negative it sounds, is not: an answer never seen before must not reject anything.
 */
export function isNegativeAnswer(text: string): boolean {
  const folded = foldTurkish(text);
  return FOLDED_NEGATIVES.some((negative) => folded.includes(negative));
}
