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

/**
 * How a lookup introduces itself: as a current desktop browser does, for e-Devlet may refuse a
 * request that does not look like one.
 */
export const EDEVLET_BROWSER = {
  userAgent:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  acceptPage: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  acceptJson: "application/json, text/plain, */*",
  acceptLanguage: "tr-TR,tr;q=0.9,en;q=0.8",
} as const;

/** Whether a `User-Agent` is a browser's (`Mozilla/5.0 (…)`), not a library's default (`node`, `undici`, `curl/8`). */
export function isBrowserUserAgent(userAgent: string | undefined): boolean {
  return /^Mozilla\/5\.0 \(/.test(userAgent ?? "");
}

/**
 * A lookup that must answer e-Devlet's documented negative: a barcode e-Devlet cannot know
 * (its letters spell "canary") and a number whose check digits hold. What `ops issuer probe`
 * asks by default.
 */
export const CANARY_LOOKUP = { barcode: "KANARYA-0000-YOKTUR", identityNumber: "10000000146" } as const;

/** The mobile endpoint: `GET /api.php?p=belge-dogrulama&qr=<mobileQr(...)>`, JSON, no login. */
export const EDEVLET_MOBILE = { path: "/api.php", page: "belge-dogrulama" } as const;

/** The `qr` value the mobile endpoint reads: `barkod:<BARCODE>;tckn:<TCKN>;`. */
export function mobileQr(barcode: string, identityNumber: string): string {
  return `barkod:${barcode};tckn:${identityNumber};`;
}

/**
 * The only answers that mean the issuer has no such document for this person, each on the web
 * form's step edevlet.md names. The mobile endpoint documents neither (its one documented
 * refusal, `MOBILE_REFUSAL`, is about the number, not the document).
 */
export const NEGATIVE_ANSWERS = {
  /** Step 2 of the form: the barcode is not e-Devlet's. */
  unknownBarcode: "Girilen barkod numarası e-Devlet Kapısında tanımlı değildir.",
  /** Step 4 of the form: the number is not the document's holder. */
  notHolder: "Kayıt bulunmadı.",
} as const;
export type NegativeAnswer = keyof typeof NEGATIVE_ANSWERS;

/**
 * The one refusal of the mobile endpoint the public clients document, seen for a number e-Devlet
 * does not accept. It says nothing of the document, so it is no `not_found` (edevlet.md).
 */
export const MOBILE_REFUSAL = "Lütfen geçerli bir kimlik numarası giriniz.";

/** A text folded for comparing: case, Turkish letters and spacing set aside, no full stop at its end. */
const sentenceKey = (text: string) => foldTurkish(text).replace(/\.$/, "");

/** The sentences of a message: each ends at a full stop, question or exclamation mark followed by a space. */
const sentences = (message: string) => message.split(/(?<=[.!?])\s+/);

/**
 * Whether `message` (the text of a message the page shows, or one of the mobile endpoint's)
 * says `text`: one of its sentences is the whole of it, matched without case, with or without
 * Turkish letters, whatever the spacing. A fragment ("Kayıt bulunmadığı için…") is not; an answer
 * never seen before must not reject anything.
 */
export function says(message: string, text: string): boolean {
  const wanted = sentenceKey(text);
  return sentences(message).some((sentence) => sentenceKey(sentence) === wanted);
}
