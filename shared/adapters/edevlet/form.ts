/**
 * e-Devlet's barcode verification over its web form (edevlet.md section 1): five steps in one
 * session, each POST carrying the last page's token, within one budget. Only a PDF at step 5 is
 * `found`; `not_found` only when the page shows a documented negative text as its message, on
 * the step edevlet.md names; every other page is `unavailable`, so a form e-Devlet has changed
 * sends verifications to review, never rejects them.
 */
import { EDEVLET_BUDGET_MS, EDEVLET_FORM, NEGATIVE_ANSWERS, type NegativeAnswer, says } from "../../domain/edevlet.ts";
import type { Authority, IssuerAnswer, IssuerLookup } from "../../ports/authority.ts";
import {
  DOCUMENT_LIMIT_BYTES,
  type Exchange,
  isPdf,
  type Observe,
  openExchange,
  PAGE_LIMIT_BYTES,
  pageText,
  Unavailable,
  unavailableAnswer,
} from "./exchange.ts";
import { documentLink, hasField, type Page, pageToken, readPage } from "./page.ts";

export interface EdevletFormOptions {
  /** e-Devlet's base URL (`EDEVLET_URL`), without a path. */
  url: string;
  /** The whole lookup's budget, every step and redirect included; `EDEVLET_BUDGET_MS` by default. */
  budgetMs?: number;
  /** Told each request and each page read (`ops issuer probe`). */
  observe?: Observe;
}

const { fields } = EDEVLET_FORM;

/** The token of a page that asks for `field`; a page that does not is one the flow does not know. */
function tokenOfForm(page: Page, field: string): string {
  const token = pageToken(page);
  if (token === undefined || !hasField(page, field)) throw new Unavailable("unrecognised");
  return token;
}

/** Whether the page shows the negative answer `negative` as one of its messages. */
const shows = (page: Page, negative: NegativeAnswer) =>
  page.messages.some((message) => says(message, NEGATIVE_ANSWERS[negative]));

async function flow(exchange: Exchange, base: URL, request: IssuerLookup, observe?: Observe): Promise<IssuerAnswer> {
  const at = (target: string) => new URL(target, base);
  const page = async (target: string, form?: Record<string, string>): Promise<Page> => {
    const answer = await exchange.send(
      at(target),
      form ? { method: "POST", form: new URLSearchParams(form) } : { method: "GET" },
      PAGE_LIMIT_BYTES,
    );
    const read = readPage(pageText(answer));
    // Reading takes time too: the budget is the whole lookup's.
    exchange.checkBudget();
    const token = pageToken(read);
    const link = documentLink(read);
    observe?.({ kind: "page", ...(token && { token }), ...(link && { link }), messages: read.messages });
    return read;
  };
  const post = (target: string, token: string, values: Record<string, string>) =>
    page(target, { [fields.token]: token, ...values, [fields.button]: EDEVLET_FORM.button });

  // 1. The form, the session's cookies, a token.
  let token = tokenOfForm(await page(EDEVLET_FORM.start), fields.barcode);
  // 2. The barcode: an unknown one is the form again, with the negative text as its message.
  const second = await post(EDEVLET_FORM.barcode, token, { [fields.barcode]: request.barcode });
  if (shows(second, "unknownBarcode")) return { kind: "not_found" };
  token = tokenOfForm(second, fields.identityNumber);
  // 3. The holder's number: a wrong one is not refused yet.
  const third = await post(EDEVLET_FORM.identity, token, { [fields.identityNumber]: request.identityNumber });
  token = tokenOfForm(third, fields.consent);
  // 4. The consent: a number that is not the holder's is refused here.
  const fourth = await post(EDEVLET_FORM.consent, token, { [fields.consent]: "1" });
  if (shows(fourth, "notHolder")) return { kind: "not_found" };
  // 5. The issuer's copy, asked for whether or not the page draws a link to it: the PDF is the
  // proof. Anything else here, whatever it says, is unrecognised.
  const document = await exchange.send(at(EDEVLET_FORM.document), { method: "GET" }, DOCUMENT_LIMIT_BYTES);
  if (isPdf(document.body)) return { kind: "found", document: document.body };
  throw new Unavailable("unrecognised");
}

/** The `Authority` port over e-Devlet's web form at `url`. */
export function edevletFormAuthority(options: EdevletFormOptions): Authority {
  const base = new URL(options.url);
  return {
    async lookup(request) {
      try {
        const exchange = openExchange(options.budgetMs ?? EDEVLET_BUDGET_MS, Date.now, options.observe);
        return await flow(exchange, base, request, options.observe);
      } catch (error) {
        return unavailableAnswer(error);
      }
    },
  };
}
