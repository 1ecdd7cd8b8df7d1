/**
 * A check's detail in the page's language, written from its `detail_code` and `detail_params`
 * (never from the API's `detail`): in English the API's own sentences (generated into
 * `api-check-details.ts`), in Turkish the words below, one for every code (the compiler holds
 * the list). A value named by a code has words of its own: `cause`, `reason`, `rule`, a
 * `document_type` and each of `fields`.
 */
import { API_CAUSES, API_DETAILS, UNREADABLE_CODES } from "./api-check-details.ts";
import { FIELD_WORDS, RULE_MET_WORDS, RULE_NOT_MET_WORDS, TYPE_WORDS } from "./document-types.ts";
import { fill, type Language } from "./language.ts";

export type DetailCode = keyof typeof API_DETAILS;
type UnreadableCode = (typeof UNREADABLE_CODES)[number];
type Cause = keyof typeof API_CAUSES;

const UNREADABLE_TR: Readonly<Record<UnreadableCode, string>> = {
  pdf_encrypted: "PDF şifreli",
  pdf_no_pages: "PDF'in hiç sayfası yok",
  pdf_too_many_pages: "PDF'in {max_pages} sayfadan fazlası var",
  pdf_unreadable: "PDF okunamadı",
  png_truncated: "PNG dosyası eksik",
  png_no_header: "PNG'nin görüntü başlığı yok",
  png_header_invalid: "PNG'nin görüntü başlığı geçerli değil",
  jpeg_invalid: "JPEG'in yapısı geçerli değil",
  jpeg_frame_invalid: "JPEG'in çerçeve başlığı geçerli değil",
  jpeg_no_frame: "JPEG'in çerçeve başlığı yok",
  image_too_large: "Görüntüyü ({width} x {height}) açmak {mib} MiB'tan fazla bellek gerektiriyor",
  image_unreadable: "{file_type} okunamadı",
  read_too_slow: "Belgeyi okumak {seconds} saniyeden uzun sürüyor",
  read_too_large: "Belgeyi okumak {mib} MiB'tan fazla bellek gerektiriyor",
};

/** Why the issuer did not answer (`cause`). */
const CAUSE_WORDS: Readonly<Record<Language, Readonly<Record<Cause, string>>>> = {
  en: API_CAUSES,
  tr: {
    timeout: "kurum zamanında yanıt vermedi",
    http_error: "kurum bir hatayla yanıt verdi",
    busy: "kurum yoğundu",
    unrecognised: "kurum, hizmetin tanımadığı bir biçimde yanıt verdi",
    unreachable: "kuruma ulaşılamadı",
  },
} as const;

const DETAIL_TR: Readonly<Record<DetailCode, string>> = {
  document_stored: "Belge saklanıyor",
  document_not_stored: "Bu doğrulama için saklanan bir belge yok",
  size_as_declared: "{bytes} bayt, bildirildiği gibi",
  size_differs: "Belge {bytes} bayt; bildirilen {declared_bytes} bayt değil",
  file_type_is: "İçerik {file_type}",
  file_type_refused: "İçerik, {document_type} için kabul edilen bir dosya türü değil",
  document_opens: "{file_type} açılıyor",
  ...UNREADABLE_TR,
  barcode_and_number_read: "{barcode} barkodu ve kimlik numarası okundu",
  barcode_and_number_sent: "{barcode} barkodu ve kimlik numarası istekle gönderildi",
  barcode_without_number: "{barcode} barkodu okundu, ancak kuruma sormak için kimlik numarası yok",
  barcode_not_in_pdf: "PDF'in ne metninde ne de karekodunda barkod numarası var",
  barcode_not_in_image: "Fotoğrafta ya da taramada barkod numarasını taşıyan bir karekod yok",
  issuer_holds_keys: "Kurum, gönderilen anahtarlar için belgeyi tutuyor; karşılaştırılacak bir yükleme yoktu",
  issuer_holds_image: "Kurum, bu anahtarlar için belgeyi tutuyor; bir fotoğraf ya da tarama onunla karşılaştırılamaz",
  issuer_copy_same_bytes: "Belge, kurumun kopyasıyla bayt bayt aynı",
  issuer_copy_same_text: "Belge, kurumun kopyasıyla aynı içerikte, başka bir dosyada",
  issuer_copy_differs: "Belgenin metni kurumun kopyasından farklı",
  issuer_not_found: "Kurumda bu barkod ve bu kimlik numarası için bir belge yok",
  issuer_not_configured: "Bir kurum bağlantısı yapılandırılmamış",
  issuer_no_answer: "Yanıt yok: {cause}; yeniden deneme süresi boyunca yeniden soruldu",
  issuer_copy_unreadable: "Kurumun kopyası okunamadı: {reason}",
  fields_read: "Belgenin alanları kurumun kopyasından okundu",
  fields_missing: "Eksik ya da hatalı: {fields}",
  rule_met: "{rule}",
  rule_not_met: "{rule}",
  issue_date_missing: "Kurumun kopyasında, belgenin yaşını ölçecek bir düzenlenme tarihi yok",
  issued_within: "{days} gün önce düzenlenmiş; izin verilen {max_days} gün içinde",
  issued_too_long_ago: "{days} gün önce düzenlenmiş; izin verilen {max_days} günden eski",
  subject_matches: "Beklenen kişi, kurumun kopyasında adı geçen kişi",
  subject_differs: "Belge, beklenen kişiden başka birine ait",
  not_run_earlier_failed: "Çalıştırılmadı: önceki bir kontrol geçmedi",
  not_run_decided: "Çalıştırılmadı: sonucu önceki bir kontrol belirledi",
  not_run_sandbox_prefix: "Çalıştırılmadı: sonucu {prefix} test referansı öneki belirledi",
  unrecorded: "{detail}",
};

const DETAIL_WORDS: Readonly<Record<Language, Readonly<Record<DetailCode, string>>>> = {
  en: API_DETAILS,
  tr: DETAIL_TR,
};

/** A check as the pages read it. */
export interface DetailedCheck {
  detail: string;
  detail_code: DetailCode;
  detail_params: Record<string, string | number | string[]>;
}

/** A detail as a page shows it: the text, and `en` when it is the API's own sentence (recorded before codes, or a code the page does not know). */
export interface ShownDetail {
  text: string;
  lang?: "en";
}

/** `check`'s detail in `language`. */
export function checkDetailText(check: DetailedCheck, language: Language): ShownDetail {
  if (check.detail_code === "unrecorded" || !(check.detail_code in API_DETAILS)) {
    return { text: check.detail, lang: "en" };
  }
  return { text: detailWords(check.detail_code, check.detail_params, language) };
}

function detailWords(code: DetailCode, params: DetailedCheck["detail_params"], language: Language): string {
  const number = new Intl.NumberFormat(language === "tr" ? "tr-TR" : "en-GB");
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) values[name] = value.map((field) => wordOf(FIELD_WORDS[language], field)).join(", ");
    else if (typeof value === "number")
      values[name] = name === "width" || name === "height" ? String(value) : number.format(value);
    else if (name === "cause") values[name] = wordOf(CAUSE_WORDS[language], value);
    else if (name === "reason" && (UNREADABLE_CODES as readonly string[]).includes(value))
      values[name] = detailWords(value as UnreadableCode, { ...params, reason: [] }, language);
    else if (name === "rule")
      values[name] = wordOf(code === "rule_met" ? RULE_MET_WORDS[language] : RULE_NOT_MET_WORDS[language], value);
    else if (name === "document_type") values[name] = wordOf(TYPE_WORDS[language], value);
    else values[name] = value;
  }
  return fill(DETAIL_WORDS[language][code], values);
}

/** The words for `code` in `words`, or the code itself when a newer API sends one the page does not know. */
function wordOf(words: Readonly<Record<string, string>>, code: string): string {
  return words[code] ?? code;
}
