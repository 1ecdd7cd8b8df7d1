/**
 * A web page's files as HTTP responses (the review console, the portal): the page with its
 * identity settings filled in, its script and styles and the scripts it loads when it needs them,
 * each under a Content-Security-Policy that lets the page load only its own files (and run them
 * in workers), talk only to its API and the user pool, frame nothing, and read the documents (the
 * console: their bytes, and photos as images) from where their presigned links point.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import type { Log } from "../ports/log.ts";
import { PROBLEM_CONTENT_TYPE, problemBody } from "./problems.ts";
import { errorResponse, header, REQUEST_ID_HEADER } from "./responses.ts";

/**
 * Each page web/build.ts writes into `<WEB_ASSETS>/<folder>/`: its route, its script and styles,
 * and the modules it imports only when it needs them (the console's pdf.js and its worker).
 */
export const WEB_PAGES = {
  backoffice: {
    root: "/backoffice",
    script: "console.js",
    styles: "console.css",
    modules: ["pdf.mjs", "pdf.worker.mjs"],
  },
  portal: { root: "/portal", script: "portal.js", styles: "portal.css", modules: [] },
} as const;
export type WebPageName = keyof typeof WEB_PAGES;

/** The icon both pages share, written beside each page's script (web/common/favicon.svg). */
export const FAVICON = "favicon.svg";

/** A page's files as read: the page, its script, its styles, its icon and its modules by name. */
export interface WebPageFiles {
  page: string;
  script: string;
  styles: string;
  icon: string;
  modules: Record<string, string>;
}
export interface PageSettings {
  /** Where the page calls the user pool's API: Cognito's regional endpoint, or the local one. */
  identityEndpoint: string;
  /** The page's app client of its user pool. */
  clientId: string;
  /** The origin of the presigned document links the page reads and shows; none for a page that shows no document. */
  documentsOrigin?: string;
}

/** The page's files, read once (at cold start) from the built web assets. */
export function readWebPage(webAssets: string, name: WebPageName): WebPageFiles {
  const folder = path.join(webAssets, name);
  const read = (file: string) => readFileSync(path.join(folder, file), "utf8");
  return {
    page: read("index.html"),
    script: read(WEB_PAGES[name].script),
    styles: read(WEB_PAGES[name].styles),
    icon: read(FAVICON),
    modules: Object.fromEntries(WEB_PAGES[name].modules.map((file) => [file, read(file)])),
  };
}

/** What index.html carries where the settings go (`<meta ... content="%NAME%">`). */
const PLACEHOLDERS = { identityEndpoint: "%IDENTITY_ENDPOINT%", clientId: "%CLIENT_ID%" } as const;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/**
 * No inline script or style, no other site's code, no frames, no framing of the page itself. Its
 * workers run its own files (`script-src`, which `worker-src` falls back to); a page that shows
 * documents fetches them and shows photos from their origin.
 */
export function pagePolicy(settings: Pick<PageSettings, "identityEndpoint" | "documentsOrigin">): string {
  const documents = settings.documentsOrigin ? ` ${new URL(settings.documentsOrigin).origin}` : "";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self' ${new URL(settings.identityEndpoint).origin}${documents}`,
    "frame-src 'none'",
    `img-src 'self'${documents}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The page with the settings in its meta tags; fails (at cold start) on a page built without the placeholders. */
export function fillPage(page: string, settings: Pick<PageSettings, "identityEndpoint" | "clientId">): string {
  let filled = page;
  for (const [name, placeholder] of Object.entries(PLACEHOLDERS) as [keyof typeof PLACEHOLDERS, string][]) {
    if (!filled.includes(placeholder)) throw new Error(`The page has no ${placeholder} to fill`);
    filled = filled.replaceAll(placeholder, escapeHtml(settings[name]));
  }
  return filled;
}

interface Served {
  contentType: string;
  body: string;
  readonly etag: string;
}

/** A file as served; its entity tag is the body's hash, made when first asked for rather than at cold start. */
function served(contentType: string, body: string): Served {
  let etag: string | undefined;
  return {
    contentType,
    body,
    get etag() {
      etag ??= `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
      return etag;
    },
  };
}

/**
 * Answers a page's two routes from files read once: `GET <root>` (the page; asked without its
 * trailing slash, a redirect to it, so the page's relative URLs resolve under `<root>/`) and
 * `GET <root>/assets/{file}` (the script, the styles, the icon and the modules, by exact name).
 */
export function pageResponder(
  name: WebPageName,
  files: WebPageFiles,
  settings: PageSettings,
): (event: APIGatewayProxyEvent) => APIGatewayProxyResult {
  const { root, script, styles } = WEB_PAGES[name];
  const page = served("text/html; charset=utf-8", fillPage(files.page, settings));
  const assets = new Map<string, Served>([
    [script, served("text/javascript; charset=utf-8", files.script)],
    [styles, served("text/css; charset=utf-8", files.styles)],
    [FAVICON, served("image/svg+xml", files.icon)],
    ...Object.entries(files.modules).map(
      ([file, body]) => [file, served("text/javascript; charset=utf-8", body)] as const,
    ),
  ]);
  const policy = pagePolicy(settings);

  return (event) => {
    const requestId = event.requestContext.requestId;
    const common = {
      [REQUEST_ID_HEADER]: requestId,
      "Content-Security-Policy": policy,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "X-Frame-Options": "DENY",
    };
    if (event.resource === root && !event.path.endsWith("/")) {
      return { statusCode: 308, headers: { ...common, Location: `${root.slice(1)}/` }, body: "" };
    }
    const file = event.resource === root ? page : assets.get(event.pathParameters?.file ?? "");
    if (!file) {
      const problem = problemBody("route_not_found", "The page has no file of this name", requestId);
      return {
        statusCode: problem.status,
        headers: { ...common, "Content-Type": PROBLEM_CONTENT_TYPE },
        body: JSON.stringify(problem),
      };
    }
    // Not fingerprinted, so never cached blindly: the browser asks again and gets a 304 while unchanged.
    const caching = { "Cache-Control": "no-cache", ETag: file.etag };
    const known = (header(event, "If-None-Match") ?? "").split(",").map((tag) => tag.trim());
    if (known.includes(file.etag)) return { statusCode: 304, headers: { ...common, ...caching }, body: "" };
    return { statusCode: 200, headers: { ...common, ...caching, "Content-Type": file.contentType }, body: file.body };
  };
}

/** An AWS service's regional address, in the region Lambda runs the function in. */
export function regional(address: (region: string) => string): string {
  const region = process.env.AWS_REGION;
  if (!region) throw new Error("AWS_REGION is not set");
  return address(region);
}

/**
 * A page function's handler: the page's files read now (at cold start), its identity settings
 * (the local identity endpoint when one is set, else Cognito's regional one), and any error as
 * problem+json.
 */
export function pageHandler(
  log: Log,
  name: WebPageName,
  webAssets: string,
  settings: Omit<PageSettings, "identityEndpoint"> & { identityEndpoint: string | undefined },
): (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult> {
  const respond = pageResponder(name, readWebPage(webAssets, name), {
    ...settings,
    identityEndpoint: settings.identityEndpoint ?? regional((region) => `https://cognito-idp.${region}.amazonaws.com/`),
  });
  return async (event) => {
    try {
      return respond(event);
    } catch (error) {
      return errorResponse(error, event.requestContext.requestId, log);
    }
  };
}
