/**
 * The e-Devlet simulator (edevlet.md): e-Devlet's barcode verification as the sandbox and the
 * local runtime's issuer, both ways in, answered from what the simulator holds for a barcode.
 *
 * The web form keeps no session on the server, so any Lambda instance answers any step: the
 * session is `TURKIYESESSIONID` and a second cookie, `w3p`, that carries the step reached, the
 * current page's token and what was established (the barcode, and whether the number given was
 * the holder's, never the number itself), signed with the key over the session id. Both are
 * renewed on every page. A client that drops a cookie, sends an earlier page's token or skips a
 * step lands on the start page, in a fresh session, with a warning that is no negative answer.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { BARCODE_PATTERN, isIdentityNumber } from "../domain/certificates/keys.ts";
import { EDEVLET_FORM, EDEVLET_MOBILE, isBrowserUserAgent, NEGATIVE_ANSWERS } from "../domain/edevlet.ts";
import type { HoldingLookup, SimulatedBehaviour } from "../ports/issuer-catalogue.ts";
import type { Log } from "../ports/log.ts";
import { escapeHtml } from "./web-assets.ts";

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

type Notice = "unknownBarcode" | "notHolder" | "restarted" | "invalidNumber" | "consentMissing" | "nearMiss";

const NOTICES: Record<Notice, string> = {
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

/** The windows-1254 bytes of the Turkish letters outside ASCII; `ş` and `Ş` are written as references instead. */
const WINDOWS_1254: Record<string, number> = {
  ç: 0xe7,
  ğ: 0xf0,
  ı: 0xfd,
  ö: 0xf6,
  ü: 0xfc,
  Ç: 0xc7,
  Ğ: 0xd0,
  İ: 0xdd,
  Ö: 0xd6,
  Ü: 0xdc,
};

/** `text` (an HTML page) in windows-1254, `ş` as `&scedil;`, `Ş` as `&#350;`, anything else outside it as a numeric reference. */
function inWindows1254(text: string): Uint8Array {
  const bytes: number[] = [];
  const ascii = (written: string) => {
    for (const character of written) bytes.push(character.charCodeAt(0));
  };
  for (const character of text.replace('<meta charset="utf-8">', '<meta charset="windows-1254">')) {
    const code = character.codePointAt(0) ?? 0;
    const byte = WINDOWS_1254[character];
    if (code < 0x80) bytes.push(code);
    else if (byte !== undefined) bytes.push(byte);
    else if (character === "ş") ascii("&scedil;");
    else if (character === "Ş") ascii("&#350;");
    else ascii(`&#${code};`);
  }
  return new Uint8Array(bytes);
}

/** Where a session stands: the step whose page it is on, and what the earlier steps established. */
/** Where a session stands; past step 2, with the barcode's behaviour, so no later page needs to look it up. */
type Stage =
  | { step: "barcode" }
  | { step: "identity"; barcode: string; behaviour?: SimulatedBehaviour }
  | { step: "consent"; barcode: string; matched: boolean; behaviour?: SimulatedBehaviour }
  | { step: "document"; barcode: string; behaviour?: SimulatedBehaviour };

/** A stage's `behaviour`, when there is one. */
const withBehaviour = (behaviour: SimulatedBehaviour | undefined) => (behaviour ? { behaviour } : {});

type SessionState = Stage & {
  /** The token of the page last shown; none between a POST and the page it redirects to. */
  token?: string;
  /** A text the next page shows once. */
  notice?: Notice;
  /** When the session lapses, in milliseconds since the epoch. */
  expires: number;
};

interface Session {
  id: string;
  state: SessionState;
}

const COOKIE_ATTRIBUTES = "Path=/; HttpOnly; SameSite=Lax";
const HTML = "text/html; charset=utf-8";

/** Waits `ms`, or less if `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
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

function cookieValues(cookies: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const cookie of cookies) {
    for (const pair of cookie.split(";")) {
      const equals = pair.indexOf("=");
      if (equals > 0) values.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
  }
  return values;
}

const newSessionId = () => randomBytes(16).toString("hex");
const newToken = () => `{${randomUUID().toUpperCase()}}`;

/** The `w3p` cookie: the state and its signature over the session id, base64url each. */
function sealState(key: string, id: string, state: SessionState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  const mac = createHmac("sha256", key).update(`${id}.${payload}`).digest("base64url");
  return `${payload}.${mac}`;
}

function openState(key: string, id: string, sealed: string): SessionState | undefined {
  const [payload = "", mac = "", ...rest] = sealed.split(".");
  if (rest.length > 0) return undefined;
  const expected = createHmac("sha256", key).update(`${id}.${payload}`).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as SessionState;
  } catch {
    return undefined;
  }
}

function page(title: string, content: string, notice?: string): string {
  const alert = notice
    ? `\n<div class="fieldsetErrors warningContainer" role="alert"><p>${escapeHtml(notice)}</p></div>`
    : "";
  return `<!DOCTYPE html>
<html lang="tr" dir="ltr">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)} | e-Devlet Kapısı</title>
</head>
<body class="pageService">
<header id="pageHeader"><a href="/" class="logo">e-Devlet Kapısı</a></header>
<main id="pageContent">
<section id="serviceContent">
<h1>${escapeHtml(title)}</h1>${alert}
${content}
</section>
</main>
<footer id="pageFooter"><p>Bu sayfa e-Devlet Kapısının barkodlu belge doğrulamasının test amaçlı bir benzetimidir.</p></footer>
</body>
</html>
`;
}

/** A form as e-Devlet's pages carry it: the token in a hidden input, and on the form as `data-token`. */
function form(action: string, token: string, fields: string): string {
  return `<form action="${escapeHtml(action)}" method="post" id="mainForm" class="resultForm" data-token="${escapeHtml(token)}">
<fieldset>
${fields}
</fieldset>
<input type="hidden" name="token" value="${escapeHtml(token)}">
<div class="formSubmitRow"><input type="submit" name="${EDEVLET_FORM.fields.button}" class="submitButton" value="${EDEVLET_FORM.button}"></div>
</form>`;
}

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

function startPage(token: string, notice?: string): string {
  const field = EDEVLET_FORM.fields.barcode;
  return page(
    SIMULATOR_TEXTS.title,
    `${paragraph(SIMULATOR_TEXTS.introduction)}
${form(
  EDEVLET_FORM.barcode,
  token,
  `<div class="formRow"><label for="${field}">Barkod Numarası</label>
<input type="text" name="${field}" id="${field}" maxlength="40" autocomplete="off" required></div>`,
)}`,
    notice,
  );
}

function identityPage(token: string, barcode: string, notice?: string): string {
  const field = EDEVLET_FORM.fields.identityNumber;
  return page(
    SIMULATOR_TEXTS.title,
    `<dl class="compact"><dt>Barkod Numarası</dt><dd>${escapeHtml(barcode)}</dd></dl>
${paragraph(SIMULATOR_TEXTS.identityPrompt)}
${form(
  EDEVLET_FORM.identity,
  token,
  `<div class="formRow"><label for="${field}">T.C. Kimlik Numarası</label>
<input type="text" name="${field}" id="${field}" maxlength="11" inputmode="numeric" autocomplete="off" required></div>`,
)}`,
    notice,
  );
}

function consentPage(token: string, notice?: string): string {
  const field = EDEVLET_FORM.fields.consent;
  return page(
    SIMULATOR_TEXTS.title,
    form(
      EDEVLET_FORM.consent,
      token,
      `${paragraph(SIMULATOR_TEXTS.consent)}
<div class="formRow checkboxRow"><input type="checkbox" name="${field}" id="${field}" value="1">
<label for="${field}">${escapeHtml(SIMULATOR_TEXTS.consentLabel)}</label></div>`,
    ),
    notice,
  );
}

/** The page after the consent: the link to the document, or (`button`) a button, or (`hidden-negative`) negative texts nobody sees beside it. */
function resultPage(behaviour: SimulatedBehaviour | undefined): string {
  const link =
    behaviour === "button"
      ? `<button type="button" class="documentLink" onclick="window.open('${escapeHtml(FORM_PAGES.document)}')">${escapeHtml(SIMULATOR_TEXTS.documentLink)}</button>`
      : `<a href="${escapeHtml(FORM_PAGES.document)}" class="documentLink" target="_blank">${escapeHtml(SIMULATOR_TEXTS.documentLink)}</a>`;
  const hidden =
    behaviour === "hidden-negative"
      ? `\n<div class="fieldsetErrors warningContainer" role="alert" style="display: none"><p>${escapeHtml(NEGATIVE_ANSWERS.notHolder)}</p></div>
<!-- <div class="warningContainer">${escapeHtml(NEGATIVE_ANSWERS.unknownBarcode)}</div> -->`
      : "";
  return page(SIMULATOR_TEXTS.title, `${paragraph(SIMULATOR_TEXTS.result)}${hidden}\n<p>${link}</p>`);
}

function challengePage(token: string): string {
  return page(
    "Güvenlik Doğrulaması",
    `${paragraph(SIMULATOR_TEXTS.challenge)}
${form(
  EDEVLET_FORM.barcode,
  token,
  `<div class="formRow"><img src="/captcha.png" alt="Güvenlik kodu">
<label for="guvenlikKodu">Güvenlik Kodu</label>
<input type="text" name="guvenlikKodu" id="guvenlikKodu" maxlength="6" autocomplete="off" required></div>`,
)}`,
  );
}

const html = (
  status: number,
  body: string,
  cookies: string[] = [],
  headers: Record<string, string> = {},
): SimulatorResponse => ({
  status,
  headers: { "content-type": HTML, "cache-control": "no-store", ...headers },
  cookies,
  body,
});

/** A page as `windows-1254` serves it. */
function encoded1254(response: SimulatorResponse): SimulatorResponse {
  if (typeof response.body !== "string") return response;
  return {
    ...response,
    headers: { ...response.headers, "content-type": "text/html; charset=windows-1254" },
    body: inWindows1254(response.body),
  };
}

const json = (body: unknown): SimulatorResponse => ({
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  cookies: [],
  body: JSON.stringify(body),
});

const busyPage = () =>
  html(429, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.busy)), [], {
    "retry-after": String(BUSY_RETRY_AFTER_SECONDS),
  });
const errorPage = () => html(500, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.error)));
const forbiddenPage = () => html(403, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.browserOnly)));
const notFoundPage = () => html(404, page("Sayfa Bulunamadı", paragraph(SIMULATOR_TEXTS.notFound)));

/** The barcode and number of the mobile endpoint's `qr`: `barkod:<BARCODE>;tckn:<TCKN>;`, the app's scheme perhaps before it. */
function qrKeys(qr: string): { barcode?: string; identityNumber?: string } {
  const keys: { barcode?: string; identityNumber?: string } = {};
  for (const item of qr.replace(/^barkodlubelgedogrulama:\/\//i, "").split(";")) {
    const colon = item.indexOf(":");
    if (colon < 0) continue;
    const name = item.slice(0, colon).trim().toLowerCase();
    const value = item.slice(colon + 1).trim();
    if (name === "barkod") keys.barcode ??= value.toUpperCase();
    if (name === "tckn") keys.identityNumber ??= value;
  }
  return keys;
}

/** The mobile endpoint's answer, shaped as edevlet.md section 2 shows it. */
function mobileAnswer(fields: { kuyrukMu?: 0 | 1; return: boolean; data?: unknown; messages?: string[] }) {
  return json({
    TURKIYESESSIONID: newSessionId(),
    kuyrukMu: fields.kuyrukMu ?? 0,
    return: fields.return,
    login: 0,
    data: fields.data ?? null,
    messageArr: fields.messages ?? [],
  });
}

const refused = (message: string) => mobileAnswer({ return: false, messages: [message] });

const mobileDocument = (bytes: Uint8Array) =>
  mobileAnswer({
    return: true,
    data: {
      kimlikNo: "",
      verildigiKurum: null,
      olusturulmaTarihi: null,
      barkodluBelge: Buffer.from(bytes).toString("base64"),
      dynamic: 1,
      kod: 0,
    },
  });

/** The copy handed over: the held bytes, or (`rerendered`) the same document with other bytes each time. */
function copyOf(bytes: Uint8Array, behaviour: SimulatedBehaviour | undefined): Uint8Array {
  if (behaviour !== "rerendered") return bytes;
  return new Uint8Array(Buffer.concat([bytes, Buffer.from(`\n% rendered ${randomUUID()}\n`)]));
}

/** What `not-pdf` serves where the document should be. */
const NOT_A_PDF = new TextEncoder().encode(page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.documentUnavailable)));

/** The simulator: one answer per request; it never throws (a failure is a `500` page, and a log line). */
export function edevletSimulator(deps: SimulatorDeps): (request: SimulatorRequest) => Promise<SimulatorResponse> {
  const now = deps.now ?? Date.now;

  const sessionOf = async (request: SimulatorRequest): Promise<Session | undefined> => {
    const cookies = cookieValues(request.cookies);
    const id = cookies.get(EDEVLET_FORM.sessionCookie);
    const sealed = cookies.get(SESSION_STATE_COOKIE);
    if (!id || !sealed) return undefined;
    const state = openState(await deps.key(), id, sealed);
    return state && state.expires > now() ? { id, state } : undefined;
  };

  const sessionCookies = async (id: string, stage: Stage, extra: { token?: string; notice?: Notice } = {}) => {
    const state: SessionState = { ...stage, ...extra, expires: now() + SESSION_LIFETIME_MS };
    return [
      `${EDEVLET_FORM.sessionCookie}=${id}; ${COOKIE_ATTRIBUTES}`,
      `${SESSION_STATE_COOKIE}=${sealState(await deps.key(), id, state)}; ${COOKIE_ATTRIBUTES}`,
    ];
  };

  const redirect = async (
    location: string,
    id: string,
    stage: Stage,
    notice?: Notice,
    extraCookies: string[] = [],
  ): Promise<SimulatorResponse> => ({
    status: 302,
    headers: { location, "cache-control": "no-store" },
    cookies: [...(await sessionCookies(id, stage, notice ? { notice } : {})), ...extraCookies],
    body: "",
  });

  /** Out of order, without the session, or with a stale token: the start page, in a fresh session. */
  const restart = () => redirect(EDEVLET_FORM.start, newSessionId(), { step: "barcode" }, "restarted");

  /** A page of the flow: a new token, the session renewed, a notice shown once. */
  const flowPage = async (
    id: string,
    notice: Notice | undefined,
    stage: Stage,
    render: (token: string, notice?: string) => string,
  ) => {
    const token = newToken();
    return html(200, render(token, notice && NOTICES[notice]), await sessionCookies(id, stage, { token }));
  };

  async function formGet(query: URLSearchParams, session: Session | undefined): Promise<SimulatorResponse> {
    if (query.get("belge") === "goster") return documentAnswer(session);
    const islem = query.get("islem");
    if (islem === null) {
      return flowPage(session?.id ?? newSessionId(), session?.state.notice, { step: "barcode" }, startPage);
    }
    if (!session) return restart();
    const { id, state } = session;
    const behaviour = state.step === "barcode" ? undefined : state.behaviour;
    const answer = await flowStepPage(islem, id, state, behaviour);
    return behaviour === "windows-1254" ? encoded1254(answer) : answer;
  }

  async function flowStepPage(
    islem: string,
    id: string,
    state: SessionState,
    behaviour: SimulatedBehaviour | undefined,
  ): Promise<SimulatorResponse> {
    if (islem === "dogrulama" && state.step === "identity") {
      const barcode = state.barcode;
      return flowPage(id, state.notice, { step: "identity", barcode, ...withBehaviour(behaviour) }, (token, notice) =>
        identityPage(token, barcode, notice),
      );
    }
    if (islem === "onay" && state.step === "consent") {
      return flowPage(
        id,
        state.notice,
        { step: "consent", barcode: state.barcode, matched: state.matched, ...withBehaviour(behaviour) },
        consentPage,
      );
    }
    if (islem === "sonuc" && state.step === "document") {
      return flowPage(id, undefined, { step: "document", barcode: state.barcode, ...withBehaviour(behaviour) }, () =>
        resultPage(behaviour),
      );
    }
    return restart();
  }

  async function documentAnswer(session: Session | undefined): Promise<SimulatorResponse> {
    if (session?.state.step !== "document") return restart();
    const holding = await deps.holding(session.state.barcode);
    const document = holding?.document;
    // The file went away since step 3: nothing to hand over, and no refusal either.
    if (!document) return restart();
    const cookies = await sessionCookies(session.id, {
      step: "document",
      barcode: session.state.barcode,
      ...withBehaviour(session.state.behaviour),
    });
    if (holding.behaviour === "not-pdf") {
      return html(200, page(SIMULATOR_TEXTS.title, paragraph(SIMULATOR_TEXTS.documentUnavailable)), cookies);
    }
    if (holding.behaviour === "negative-at-document") {
      return html(200, page(SIMULATOR_TEXTS.title, "", NEGATIVE_ANSWERS.notHolder), cookies);
    }
    return {
      status: 200,
      headers: { "content-type": "application/pdf", "content-disposition": "inline", "cache-control": "no-store" },
      cookies,
      body: copyOf(document.bytes, holding.behaviour),
    };
  }

  async function barcodeStep(
    session: Session,
    fields: URLSearchParams,
    query: URLSearchParams,
    request: SimulatorRequest,
  ): Promise<SimulatorResponse> {
    const barcode = (fields.get(EDEVLET_FORM.fields.barcode) ?? "").trim().toUpperCase();
    const holding = BARCODE_PATTERN.test(barcode) ? await deps.holding(barcode) : undefined;
    if (!holding) return redirect(EDEVLET_FORM.start, session.id, { step: "barcode" }, "unknownBarcode");
    switch (holding.behaviour) {
      case "browser-only":
        if (!isBrowserUserAgent(request.headers["user-agent"])) return forbiddenPage();
        break;
      case "redirect-307":
        // Sent again, body and all, to where the step moved; the session and its token stay.
        if (!query.has("yonlendirme")) {
          return {
            status: 307,
            headers: { location: MOVED_BARCODE_STEP, "cache-control": "no-store" },
            cookies: [],
            body: "",
          };
        }
        break;
      case "cookie-churn":
        return redirect(
          FORM_PAGES.identity,
          session.id,
          { step: "identity", barcode, behaviour: "cookie-churn" },
          undefined,
          [`${CHURN_COOKIE}=1; Path=/`],
        );
      case "busy":
        return busyPage();
      case "error":
        return errorPage();
      case "unrecognised": {
        const token = newToken();
        return html(200, challengePage(token), await sessionCookies(session.id, { step: "barcode" }, { token }));
      }
      case "slow":
        await pause(SLOW_HOLD_MS, request.signal);
        break;
    }
    return redirect(FORM_PAGES.identity, session.id, {
      step: "identity",
      barcode,
      ...withBehaviour(holding.behaviour),
    });
  }

  async function identityStep(session: Session, stage: Extract<Stage, { step: "identity" }>, fields: URLSearchParams) {
    const { barcode } = stage;
    const number = (fields.get(EDEVLET_FORM.fields.identityNumber) ?? "").trim();
    if (!isIdentityNumber(number)) return redirect(FORM_PAGES.identity, session.id, stage, "invalidNumber");
    const holding = await deps.holding(barcode);
    // `session-lost`: e-Devlet forgot the session after step 2; `token-stale`: it refuses step 3's token.
    if (holding?.behaviour === "session-lost" || holding?.behaviour === "token-stale") return restart();
    const matched = holding?.document?.holder === number;
    // `cookie-churn`: the cookie step 2 set is deleted here.
    const deleted = holding?.behaviour === "cookie-churn" ? [`${CHURN_COOKIE}=; Max-Age=0; Path=/`] : [];
    return redirect(
      FORM_PAGES.consent,
      session.id,
      { step: "consent", barcode, matched, ...withBehaviour(stage.behaviour) },
      undefined,
      deleted,
    );
  }

  async function consentStep(
    session: Session,
    stage: Extract<Stage, { step: "consent" }>,
    fields: URLSearchParams,
    request: SimulatorRequest,
  ) {
    if (!fields.has(EDEVLET_FORM.fields.consent)) {
      return redirect(FORM_PAGES.consent, session.id, stage, "consentMissing");
    }
    const behaviour = stage.behaviour;
    // A client that still sends a deleted cookie is not keeping cookies as a browser does.
    if (behaviour === "cookie-churn" && cookieValues(request.cookies).has(CHURN_COOKIE)) return restart();
    if (behaviour === "near-miss") return redirect(EDEVLET_FORM.start, session.id, { step: "barcode" }, "nearMiss");
    // `windows-1254` refuses another holder on the consent page itself, in that charset.
    if (!stage.matched && behaviour === "windows-1254") {
      return redirect(FORM_PAGES.consent, session.id, stage, "notHolder");
    }
    if (!stage.matched) return redirect(EDEVLET_FORM.start, session.id, { step: "barcode" }, "notHolder");
    return redirect(FORM_PAGES.result, session.id, {
      step: "document",
      barcode: stage.barcode,
      ...withBehaviour(behaviour),
    });
  }

  async function formPost(
    query: URLSearchParams,
    session: Session | undefined,
    request: SimulatorRequest,
  ): Promise<SimulatorResponse> {
    const encoded = (request.headers["content-type"] ?? "")
      .toLowerCase()
      .startsWith("application/x-www-form-urlencoded");
    const fields = new URLSearchParams(encoded ? request.body : "");
    const token = fields.get(EDEVLET_FORM.fields.token);
    if (!session || !query.has("submit") || !session.state.token || token !== session.state.token) return restart();
    const islem = query.get("islem");
    const { state } = session;
    if (islem === null && state.step === "barcode") return barcodeStep(session, fields, query, request);
    if (islem === "dogrulama" && state.step === "identity") {
      const stage = { step: "identity", barcode: state.barcode, ...withBehaviour(state.behaviour) } as const;
      return identityStep(session, stage, fields);
    }
    if (islem === "onay" && state.step === "consent") {
      const stage = {
        step: "consent",
        barcode: state.barcode,
        matched: state.matched,
        ...withBehaviour(state.behaviour),
      } as const;
      return consentStep(session, stage, fields, request);
    }
    return restart();
  }

  async function mobile(query: URLSearchParams, request: SimulatorRequest): Promise<SimulatorResponse> {
    if (query.get("p") !== EDEVLET_MOBILE.page) return notFoundPage();
    const { barcode = "", identityNumber = "" } = qrKeys(query.get("qr") ?? "");
    if (!isIdentityNumber(identityNumber)) return refused(SIMULATOR_TEXTS.invalidNumber);
    const holding = BARCODE_PATTERN.test(barcode) ? await deps.holding(barcode) : undefined;
    if (!holding) return refused(NEGATIVE_ANSWERS.unknownBarcode);
    switch (holding.behaviour) {
      case "busy":
        return mobileAnswer({ kuyrukMu: 1, return: false });
      case "error":
        return errorPage();
      case "unrecognised":
        return refused(SIMULATOR_TEXTS.mobileUnrecognised);
      case "browser-only":
        if (!isBrowserUserAgent(request.headers["user-agent"])) return forbiddenPage();
        break;
      case "slow":
        await pause(SLOW_HOLD_MS, request.signal);
        break;
    }
    const document = holding.document;
    if (!document || document.holder !== identityNumber) return refused(NEGATIVE_ANSWERS.notHolder);
    return mobileDocument(holding.behaviour === "not-pdf" ? NOT_A_PDF : copyOf(document.bytes, holding.behaviour));
  }

  async function answer(request: SimulatorRequest): Promise<SimulatorResponse> {
    const url = new URL(request.target, "http://simulator.invalid");
    const method = request.method.toUpperCase();
    if (url.pathname === EDEVLET_MOBILE.path && method === "GET") return mobile(url.searchParams, request);
    if (url.pathname !== EDEVLET_FORM.start) return notFoundPage();
    const session = await sessionOf(request);
    if (method === "GET") return formGet(url.searchParams, session);
    if (method === "POST") return formPost(url.searchParams, session, request);
    return notFoundPage();
  }

  return async (request) => {
    let response: SimulatorResponse;
    try {
      response = await answer(request);
    } catch (error) {
      deps.log.error("The e-Devlet simulator could not answer", { error });
      response = errorPage();
    }
    // A step's answer takes e-Devlet its time; the redirect after a POST is part of the same step.
    if (response.status !== 302) await pause(deps.latencyMs ?? 0, request.signal);
    return response;
  };
}
