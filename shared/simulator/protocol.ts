/**
 * The e-Devlet simulator's protocol: what a request and an answer are to it, what it needs, the
 * pages its form redirects to, and every text its pages say besides the negative answers.
 */
import { EDEVLET_FORM, NEGATIVE_ANSWERS } from "../domain/edevlet.ts";
import type { HoldingLookup } from "../ports/issuer-catalogue.ts";
import type { Log } from "../ports/log.ts";

/** A request as the simulator reads it, whichever server carried it. */
export interface SimulatorRequest {
  method: string;
  /** The path with its query, as the client sent it: `/belge-dogrulama?islem=dogrulama&submit`. */
  target: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The request's cookies, each `name=value`. */
  cookies: readonly string[];
  body: string;
  /** Aborted when the client goes away: an answer held back stops waiting. */
  signal?: AbortSignal;
}

/** An answer as the simulator gives it: a page or JSON as text, the PDF as bytes. */
export interface SimulatorResponse {
  status: number;
  headers: Record<string, string>;
  /** One `Set-Cookie` value per cookie. */
  cookies: string[];
  body: string | Uint8Array;
}

export interface SimulatorDeps {
  /** What the simulator holds for a barcode, read at each step that needs it. */
  holding: HoldingLookup;
  /** The key that signs the session cookie. */
  key: () => Promise<string>;
  log: Pick<Log, "error">;
  /** Milliseconds each step's answer takes (a page, the PDF, the mobile JSON; not a redirect), as e-Devlet takes its time; none by default. */
  latencyMs?: number;
  /** Milliseconds since the epoch, by which sessions lapse. */
  now?: () => number;
}

/** How long a `slow` barcode's answer is held: past any client's budget. */
export const SLOW_HOLD_MS = 20_000;
/** A session lapses this long after its last page. */
export const SESSION_LIFETIME_MS = 10 * 60_000;
/** The cookie that carries the session's state beside `TURKIYESESSIONID`. */
export const SESSION_STATE_COOKIE = "w3p";
/** The seconds a busy answer asks the client to wait. */
export const BUSY_RETRY_AFTER_SECONDS = 30;

/** The pages the form's POSTs redirect to, and the document's link on the last one. */
export const FORM_PAGES = {
  identity: "/belge-dogrulama?islem=dogrulama",
  consent: "/belge-dogrulama?islem=onay",
  result: "/belge-dogrulama?islem=sonuc",
  document: "/belge-dogrulama?belge=goster&goster=1",
} as const;

/** What the simulator's pages say besides the negative answers. None of them is one. */
export const SIMULATOR_TEXTS = {
  title: "Barkodlu Belge Doğrulama",
  introduction:
    "Kurum ve kuruluşlar tarafından e-Devlet Kapısı üzerinden üretilen barkodlu belgelerin doğruluğunu bu hizmet aracılığıyla kontrol edebilirsiniz.",
  identityPrompt: "Belgenin doğrulanabilmesi için belge sahibinin T.C. Kimlik Numarasını giriniz.",
  consent:
    "Sorgulamayı yapan kişi ya da kurum olarak, bu belgenin tarafıma ibraz edildiğini, belgeyi yalnızca doğruluğunu denetlemek amacıyla sorguladığımı ve belgedeki kişisel verileri bu amaç dışında kullanmayacağımı beyan ederim.",
  consentLabel: "Okudum, onaylıyorum.",
  result:
    "Belge bilgileri doğrulandı. Belgenin e-Devlet Kapısında kayıtlı aslını aşağıdaki bağlantıdan görüntüleyebilirsiniz.",
  documentLink: "Belgeyi Göster",
  restarted:
    "Oturumunuzun süresi dolduğu ya da işlem adımları sırasıyla izlenmediği için işleminize baştan başlamanız gerekmektedir.",
  invalidNumber: "Lütfen geçerli bir kimlik numarası giriniz.",
  consentMissing: "Devam edebilmek için beyanı onaylamanız gerekmektedir.",
  busy: "Sistemde yoğunluk yaşanmaktadır. Lütfen bir süre sonra tekrar deneyiniz.",
  error: "İşleminiz sırasında beklenmeyen bir hata oluştu. Lütfen daha sonra tekrar deneyiniz.",
  notFound: "Aradığınız sayfa bulunamadı.",
  /** The `unrecognised` behaviour's page: a security check e-Devlet's form never had. */
  challenge: "İşleminize devam edebilmek için aşağıdaki resimde gördüğünüz karakterleri giriniz.",
  /** The `not-pdf` behaviour's page at step 5. */
  documentUnavailable: "Belge şu anda görüntülenemiyor. Lütfen daha sonra tekrar deneyiniz.",
  /** The `near-miss` behaviour's message: a negative text's first words, not the text. */
  nearMiss: "Kayıt bulunmadığı için işleminize devam edilemiyor.",
  /** The `browser-only` behaviour's refusal. */
  browserOnly: "Bu hizmete yalnızca bir internet tarayıcısı ile erişilebilir.",
  /** The `unrecognised` behaviour's mobile message. */
  mobileUnrecognised: "Belge doğrulama hizmeti şu anda verilememektedir.",
} as const;

export type Notice = "unknownBarcode" | "notHolder" | "restarted" | "invalidNumber" | "consentMissing" | "nearMiss";

export const NOTICES: Record<Notice, string> = {
  unknownBarcode: NEGATIVE_ANSWERS.unknownBarcode,
  notHolder: NEGATIVE_ANSWERS.notHolder,
  restarted: SIMULATOR_TEXTS.restarted,
  invalidNumber: SIMULATOR_TEXTS.invalidNumber,
  consentMissing: SIMULATOR_TEXTS.consentMissing,
  nearMiss: SIMULATOR_TEXTS.nearMiss,
};

/** The cookie `cookie-churn` sets at step 2 and deletes at step 3. */
export const CHURN_COOKIE = "TS01a2b3c4";
/** Where `redirect-307` sends step 2's POST again. */
export const MOVED_BARCODE_STEP = `${EDEVLET_FORM.barcode}&yonlendirme=1`;

/** Waits `ms`, or less if `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
