/** The simulator's mobile endpoint: one GET with the barcode and number in `qr`, answered as JSON (edevlet.md section 2). */
import { BARCODE_PATTERN, isIdentityNumber } from "../domain/certificates/keys.ts";
import { EDEVLET_MOBILE, isBrowserUserAgent, NEGATIVE_ANSWERS } from "../domain/edevlet.ts";
import { copyOf } from "./document.ts";
import { errorPage, forbiddenPage, NOT_A_PDF, notFoundPage } from "./pages.ts";
import { pause, SIMULATOR_TEXTS, type SimulatorRequest, type SimulatorResponse, SLOW_HOLD_MS } from "./protocol.ts";
import { type Flow, newSessionId } from "./session.ts";

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

const json = (body: unknown): SimulatorResponse => ({
  status: 200,
  headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  cookies: [],
  body: JSON.stringify(body),
});

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

/** The mobile endpoint's answer to `query`: the document, a refusal, or what the barcode's behaviour makes of it. */
export async function mobile(
  flow: Flow,
  query: URLSearchParams,
  request: SimulatorRequest,
): Promise<SimulatorResponse> {
  if (query.get("p") !== EDEVLET_MOBILE.page) return notFoundPage();
  const { barcode = "", identityNumber = "" } = qrKeys(query.get("qr") ?? "");
  if (!isIdentityNumber(identityNumber)) return refused(SIMULATOR_TEXTS.invalidNumber);
  const holding = BARCODE_PATTERN.test(barcode) ? await flow.deps.holding(barcode) : undefined;
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
