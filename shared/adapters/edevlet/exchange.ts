/**
 * What both ways into e-Devlet share: one budget for the whole lookup, requests dressed as a
 * browser's (its `User-Agent`, `Accept`, `Accept-Language`, the previous page as `Referer`),
 * cookies kept as a browser keeps them, every redirect status followed by hand within the
 * origin, bodies read only up to a limit, and pages decoded in the charset they name. Whatever
 * goes wrong is thrown as `Unavailable` with its cause, and `unavailableAnswer` turns it into the
 * port's answer, so a lookup never throws.
 */

import { createHash } from "node:crypto";
import { EDEVLET_BROWSER } from "../../domain/edevlet.ts";
import type { UnavailableCause } from "../../domain/issuer.ts";
import type { IssuerAnswer, ProbeStep } from "../../ports/authority.ts";

/** An HTML page is never larger than this (e-Devlet's are a few tens of KiB). */
export const PAGE_LIMIT_BYTES = 256 * 1024;
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

/** The `200` a request ended on: where, its content type, its body. */
export interface Answer {
  url: URL;
  contentType: string;
  body: Uint8Array;
}

/** One lookup's conversation with e-Devlet: its cookies, the page it is on, and its budget. */
export interface Exchange {
  /** Sends `request` to `url`, follows its redirects, and reads the body of the `200` it ends on, up to `limit` bytes. */
  send(url: URL, request: Request, limit: number, accept?: string): Promise<Answer>;
  /** Throws `timeout` once the budget has run out: checked between steps, as reading takes time too. */
  checkBudget(): void;
}

/** The charsets e-Devlet's pages are known in, as `TextDecoder` names them (ISO-8859-9 is read as windows-1254, its superset). */
const CHARSETS = new Set(["utf-8", "windows-1254"]);
/** How far into a page a `<meta>` naming its charset is looked for, as a browser's prescan does. */
const META_PRESCAN_BYTES = 1024;

/** The decoder for a charset label; a charset e-Devlet is not known to use makes the page unrecognised. */
function decoderFor(label: string): (bytes: Uint8Array) => string {
  try {
    const decoder = new TextDecoder(label.trim());
    if (CHARSETS.has(decoder.encoding)) return (bytes) => decoder.decode(bytes);
  } catch {
    // An unknown label: below.
  }
  throw new Unavailable("unrecognised");
}

/** The charset a `Content-Type` names, if any. */
const charsetOf = (contentType: string) => /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];

/**
 * A page's text: decoded in the charset its `Content-Type` names, or else the one a `<meta>` in
 * its first KiB names, or else UTF-8.
 */
export function pageText(answer: Answer): string {
  let label = charsetOf(answer.contentType);
  if (label === undefined) {
    const head = Buffer.from(answer.body.subarray(0, META_PRESCAN_BYTES)).toString("latin1");
    label = /<meta\s[^>]{0,512}?charset\s*=\s*["']?([A-Za-z0-9_:.-]+)/i.exec(head)?.[1];
  }
  return decoderFor(label ?? "utf-8")(answer.body);
}

/** A cookie as a browser keeps it. */
interface Cookie {
  name: string;
  value: string;
  path: string;
  /** Milliseconds since the epoch; none for a session cookie. */
  expires?: number;
  secure: boolean;
}

/** The path a cookie without `Path` gets: the request path's directory (RFC 6265 5.1.4). */
function defaultPath(url: URL): string {
  const last = url.pathname.lastIndexOf("/");
  return last <= 0 ? "/" : url.pathname.slice(0, last);
}

/** Whether a request for `path` carries a cookie set for `cookiePath` (RFC 6265 5.1.4). */
function pathMatches(path: string, cookiePath: string): boolean {
  if (path === cookiePath) return true;
  if (!path.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || path[cookiePath.length] === "/";
}

/** Whether a host is this machine: a browser counts it as secure as https. */
const isLoopback = (url: URL) => ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);

/**
 * A browser's cookie jar for one origin (RFC 6265 section 5): a cookie is kept by name and path,
 * replaced by a later one of the same name and path, and deleted by `Max-Age` of zero or less or
 * an `Expires` in the past; a `Domain` that is not the host's refuses the cookie.
 */
function cookieJar(now: () => number) {
  const cookies = new Map<string, Cookie>();
  return {
    keep(header: string, url: URL) {
      const [pair = "", ...attributes] = header.split(";");
      const equals = pair.indexOf("=");
      if (equals < 0) return;
      const name = pair.slice(0, equals).trim();
      if (name === "") return;
      const cookie: Cookie = { name, value: pair.slice(equals + 1).trim(), path: defaultPath(url), secure: false };
      let maxAge: number | undefined;
      for (const attribute of attributes) {
        const at = attribute.indexOf("=");
        const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
        const value = at < 0 ? "" : attribute.slice(at + 1).trim();
        if (key === "path" && value.startsWith("/")) cookie.path = value;
        if (key === "secure") cookie.secure = true;
        if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value);
        if (key === "expires" && !Number.isNaN(Date.parse(value))) cookie.expires ??= Date.parse(value);
        if (key === "domain" && value !== "") {
          const domain = value.replace(/^\./, "").toLowerCase();
          if (url.hostname !== domain && !url.hostname.endsWith(`.${domain}`)) return;
        }
      }
      // Max-Age outranks Expires.
      if (maxAge !== undefined) cookie.expires = maxAge <= 0 ? 0 : now() + maxAge * 1000;
      const key = `${cookie.name};${cookie.path}`;
      if (cookie.expires !== undefined && cookie.expires <= now()) cookies.delete(key);
      else cookies.set(key, cookie);
    },
    /** The `Cookie` header for `url`: longer paths first, as browsers order them; undefined when none. */
    header(url: URL): string | undefined {
      const sent = [...cookies.values()]
        .filter((cookie) => cookie.expires === undefined || cookie.expires > now())
        .filter((cookie) => !cookie.secure || url.protocol === "https:" || isLoopback(url))
        .filter((cookie) => pathMatches(url.pathname, cookie.path))
        .sort((a, b) => b.path.length - a.path.length);
      return sent.length > 0 ? sent.map(({ name, value }) => `${name}=${value}`).join("; ") : undefined;
    },
  };
}

/** Where a redirect points, relative to the URL that answered it; undefined when it points nowhere. */
function resolved(location: string | null, base: URL): URL | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A request's path and query as a probe may show it: the mobile endpoint's identity number masked. */
export function maskedPath(url: URL): string {
  return `${url.pathname}${url.search}`.replace(/(tckn(?::|%3A))[^;&%]*/gi, "$1***");
}

/** Tells a probe what each request met; nothing by default. */
export type Observe = (step: ProbeStep) => void;

const discard = (response: Response) => response.body?.cancel().catch(() => undefined);

/** The answer's body, up to `limit` bytes: over it, the answer is none e-Devlet gives; a broken read is `wireFailure`'s. */
async function readBody(response: Response, limit: number, wireFailure: () => Unavailable): Promise<Uint8Array> {
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
}

/** What a probe is told of one request: its status, type and size, and the exchange a cassette keeps. */
function observedStep(target: URL, sent: Request, response: Response, body: Uint8Array): ProbeStep {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = [value];
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const path = `${target.pathname}${target.search}`;
  return {
    kind: "request",
    method: sent.method,
    path: maskedPath(target),
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    bytes: body.byteLength,
    exchange: {
      method: sent.method,
      path,
      ...(sent.method === "POST" && { form: Object.fromEntries(sent.form) }),
      status: response.status,
      headers,
      body: isPdf(body)
        ? { pdf: { sha256: createHash("sha256").update(body).digest("hex"), size: body.byteLength } }
        : { base64: Buffer.from(body).toString("base64") },
    },
  };
}

export function openExchange(budgetMs: number, now: () => number = Date.now, observe?: Observe): Exchange {
  const signal = AbortSignal.timeout(budgetMs);
  const jar = cookieJar(now);
  /** The page the conversation is on: the next request's `Referer`. */
  let referer: URL | undefined;
  /** A failure of the wire: the budget ran out, or the connection did. */
  const wireFailure = () => new Unavailable(signal.aborted ? "timeout" : "unreachable");

  const fetchOnce = async (url: URL, request: Request, accept: string): Promise<Response> => {
    const headers: Record<string, string> = {
      "user-agent": EDEVLET_BROWSER.userAgent,
      accept,
      "accept-language": EDEVLET_BROWSER.acceptLanguage,
    };
    if (referer) headers.referer = referer.href;
    const cookie = jar.header(url);
    if (cookie) headers.cookie = cookie;
    if (request.method === "POST") {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers.origin = url.origin;
    }
    try {
      const response = await fetch(url, {
        method: request.method,
        headers,
        ...(request.method === "POST" && { body: request.form.toString() }),
        redirect: "manual",
        signal,
      });
      for (const header of response.headers.getSetCookie()) jar.keep(header, url);
      return response;
    } catch {
      throw wireFailure();
    }
  };

  return {
    async send(url, request, limit, accept = EDEVLET_BROWSER.acceptPage) {
      let target = url;
      let next = request;
      for (let redirects = 0; ; redirects += 1) {
        const response = await fetchOnce(target, next, accept);
        const sent = next;
        const seen = (body: Uint8Array) => observe?.(observedStep(target, sent, response, body));
        if (response.status !== 200) seen(new Uint8Array());
        if (REDIRECTS.has(response.status)) {
          await discard(response);
          const location = resolved(response.headers.get("location"), target);
          if (!location || location.origin !== url.origin || redirects === MAX_REDIRECTS) {
            throw new Unavailable("unrecognised");
          }
          target = location;
          // 307 and 308 repeat the request as it was; the others, as browsers do, ask with a GET.
          if (response.status !== 307 && response.status !== 308) next = { method: "GET" };
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
        const body = await readBody(response, limit, wireFailure);
        seen(body);
        referer = target;
        return { url: target, contentType: response.headers.get("content-type") ?? "", body };
      }
    },
    checkBudget() {
      if (signal.aborted) throw new Unavailable("timeout");
    },
  };
}
