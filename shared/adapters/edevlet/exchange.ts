/**
 * What both ways into e-Devlet share: one budget for the whole lookup, every cookie any answer
 * sets sent with the next request, `302`/`303` followed by hand within the origin, and bodies
 * read only up to a limit. Whatever goes wrong is thrown as `Unavailable` with its cause, and
 * `unavailableAnswer` turns it into the port's answer, so a lookup never throws.
 */
import type { UnavailableCause } from "../../domain/issuer.ts";
import type { IssuerAnswer } from "../../ports/authority.ts";

/** An HTML page is never larger than this. */
export const PAGE_LIMIT_BYTES = 1024 * 1024;
/** Nor the issuer's PDF. */
export const DOCUMENT_LIMIT_BYTES = 15 * 1024 * 1024;
/** Redirects followed for one request before the answer counts as unrecognised. */
export const MAX_REDIRECTS = 5;

const PDF_MAGIC = "%PDF-";

/** Whether `bytes` begin as a PDF does: only then are they the issuer's copy. */
export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, PDF_MAGIC.length)).toString("latin1") === PDF_MAGIC;
}

/** No answer a decision may rest on. Its message names the cause only, never anything asked. */
export class Unavailable extends Error {
  constructor(readonly reason: UnavailableCause) {
    super(`e-Devlet gave no usable answer (${reason})`);
    this.name = "Unavailable";
  }
}

/** The port's answer for whatever a lookup threw: its cause, or `unrecognised` for anything unforeseen. */
export function unavailableAnswer(error: unknown): IssuerAnswer {
  return { kind: "unavailable", cause: error instanceof Unavailable ? error.reason : "unrecognised" };
}

export type Request = { method: "GET" } | { method: "POST"; form: URLSearchParams };

/** One lookup's conversation with e-Devlet: its cookies and its budget. */
export interface Exchange {
  /** Sends `request` to `url`, follows its redirects, and reads the body of the `200` it ends on, up to `limit` bytes. */
  send(url: URL, request: Request, limit: number): Promise<Uint8Array>;
}

/** A cookie's name and value as RFC 6265 allows them; anything else is not kept. */
const COOKIE_PAIR = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)=("?)([\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*)\2$/;

/** Where a redirect points, relative to the URL that answered it; undefined when it points nowhere. */
function resolved(location: string | null, base: URL): URL | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

export function openExchange(budgetMs: number): Exchange {
  const signal = AbortSignal.timeout(budgetMs);
  const cookies = new Map<string, string>();
  /** A failure of the wire: the budget ran out, or the connection did. */
  const wireFailure = () => new Unavailable(signal.aborted ? "timeout" : "unreachable");

  const keepCookies = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const pair = COOKIE_PAIR.exec((header.split(";")[0] ?? "").trim());
      if (pair?.[1] !== undefined) cookies.set(pair[1], pair[3] ?? "");
    }
  };

  const fetchOnce = async (url: URL, request: Request): Promise<Response> => {
    const headers: Record<string, string> = { "accept-language": "tr-TR,tr;q=0.9" };
    if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (request.method === "POST") headers["content-type"] = "application/x-www-form-urlencoded";
    try {
      const response = await fetch(url, {
        method: request.method,
        headers,
        ...(request.method === "POST" && { body: request.form.toString() }),
        redirect: "manual",
        signal,
      });
      keepCookies(response);
      return response;
    } catch {
      throw wireFailure();
    }
  };

  const discard = (response: Response) => response.body?.cancel().catch(() => undefined);

  const readBody = async (response: Response, limit: number): Promise<Uint8Array> => {
    const declared = Number(response.headers.get("content-length"));
    if (declared > limit) {
      await discard(response);
      throw new Unavailable("unrecognised");
    }
    const reader = response.body?.getReader();
    if (!reader) return new Uint8Array();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > limit) {
          await reader.cancel().catch(() => undefined);
          throw new Unavailable("unrecognised");
        }
        chunks.push(value);
      }
    } catch (error) {
      throw error instanceof Unavailable ? error : wireFailure();
    }
    return new Uint8Array(Buffer.concat(chunks));
  };

  return {
    async send(url, request, limit) {
      let target = url;
      let next = request;
      for (let redirects = 0; ; redirects += 1) {
        const response = await fetchOnce(target, next);
        if (response.status === 302 || response.status === 303) {
          await discard(response);
          const location = resolved(response.headers.get("location"), target);
          if (!location || location.origin !== url.origin || redirects === MAX_REDIRECTS) {
            throw new Unavailable("unrecognised");
          }
          target = location;
          next = { method: "GET" };
          continue;
        }
        if (response.status >= 500 || response.status === 429) {
          await discard(response);
          throw new Unavailable("http_error");
        }
        if (response.status !== 200) {
          await discard(response);
          throw new Unavailable("unrecognised");
        }
        return readBody(response, limit);
      }
    },
  };
}
