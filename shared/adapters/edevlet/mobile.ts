/**
 * e-Devlet's barcode verification over its mobile endpoint (edevlet.md section 2): one GET, JSON,
 * no login, within one budget. `kuyrukMu: 1` is e-Devlet's queue (busy); `return: true` with a
 * base64 PDF is `found`; anything else is `unavailable`. The endpoint documents no answer that
 * means not found: its one documented refusal (`MOBILE_REFUSAL`, a number e-Devlet does not
 * accept) says nothing of the document, so it is no `not_found` either (edevlet.md, and
 * docs/edevlet.md for why).
 */
import { EDEVLET_BROWSER, EDEVLET_BUDGET_MS, EDEVLET_MOBILE, mobileQr } from "../../domain/edevlet.ts";
import type { Authority, IssuerAnswer } from "../../ports/authority.ts";
import {
  DOCUMENT_LIMIT_BYTES,
  isPdf,
  type Observe,
  openExchange,
  PAGE_LIMIT_BYTES,
  Unavailable,
  unavailableAnswer,
} from "./exchange.ts";

export interface EdevletMobileOptions {
  /** e-Devlet's mobile base URL (`EDEVLET_MOBILE_URL`), without a path. */
  url: string;
  /** The whole lookup's budget; `EDEVLET_BUDGET_MS` by default. */
  budgetMs?: number;
  /** Told each request (`ops issuer probe`). */
  observe?: Observe;
}

/** The answer around the largest PDF, in base64, with room for the rest of the JSON. */
const ANSWER_LIMIT_BYTES = Math.ceil((DOCUMENT_LIMIT_BYTES * 4) / 3) + PAGE_LIMIT_BYTES;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Whitespace a base64 text may be broken by (MIME breaks it into lines). */
const BASE64_BREAKS = /[\t\n\f\r ]+/g;
const utf8 = new TextDecoder();

/**
 * The `qr` parameter: `barkod:<BARCODE>;tckn:<TCKN>;` percent-encoded, except its `:` and `;`,
 * which stay readable as e-Devlet's own app sends them (a query may carry both as they are).
 */
function qrParameter(barcode: string, identityNumber: string): string {
  return encodeURIComponent(mobileQr(barcode, identityNumber)).replace(/%3A/g, ":").replace(/%3B/g, ";");
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What the endpoint's JSON says. */
function answerOf(body: Uint8Array): IssuerAnswer {
  let answer: unknown;
  try {
    answer = JSON.parse(utf8.decode(body));
  } catch {
    throw new Unavailable("unrecognised");
  }
  if (!isRecord(answer)) throw new Unavailable("unrecognised");
  if (answer.kuyrukMu === 1) throw new Unavailable("busy");
  if (answer.return === true) {
    const encoded = isRecord(answer.data) ? answer.data.barkodluBelge : undefined;
    const unbroken = typeof encoded === "string" ? encoded.replace(BASE64_BREAKS, "") : undefined;
    if (unbroken !== undefined && BASE64.test(unbroken)) {
      const document = new Uint8Array(Buffer.from(unbroken, "base64"));
      if (isPdf(document)) return { kind: "found", document };
    }
  }
  throw new Unavailable("unrecognised");
}

/** The `Authority` port over e-Devlet's mobile endpoint at `url`. */
export function edevletMobileAuthority(options: EdevletMobileOptions): Authority {
  const base = new URL(options.url);
  return {
    async lookup(request) {
      const url = new URL(EDEVLET_MOBILE.path, base);
      url.search = `p=${EDEVLET_MOBILE.page}&qr=${qrParameter(request.barcode, request.identityNumber)}`;
      try {
        const exchange = openExchange(options.budgetMs ?? EDEVLET_BUDGET_MS, Date.now, options.observe);
        const answer = await exchange.send(url, { method: "GET" }, ANSWER_LIMIT_BYTES, EDEVLET_BROWSER.acceptJson);
        return answerOf(answer.body);
      } catch (error) {
        return unavailableAnswer(error);
      }
    },
  };
}
