/**
 * The review console's files as HTTP responses: the page with its identity settings filled
 * in, its script and styles, each under a Content-Security-Policy that lets the page load
 * only its own files, talk only to its API and the user pool, and frame only the documents.
 */
import { createHash } from "node:crypto";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { PROBLEM_CONTENT_TYPE, problemBody } from "./problems.ts";
import { header, REQUEST_ID_HEADER } from "./responses.ts";

/** What web/build.ts writes into `<WEB_ASSETS>/backoffice/`. */
export const CONSOLE_FILES = ["index.html", "console.js", "console.css"] as const;
export type ConsoleFile = (typeof CONSOLE_FILES)[number];

export interface ConsoleSettings {
  /** Where the page calls the user pool's API: Cognito's regional endpoint, or the local one. */
  identityEndpoint: string;
  /** The console's app client of the staff pool. */
  clientId: string;
  /** The origin of the presigned document links the page shows in frames. */
  documentsOrigin: string;
}

/** What index.html carries where the settings go (`<meta ... content="%NAME%">`). */
const PLACEHOLDERS = { identityEndpoint: "%IDENTITY_ENDPOINT%", clientId: "%CLIENT_ID%" } as const;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** No inline script or style, no other site's code, no framing of the console itself. */
export function consolePolicy(settings: Pick<ConsoleSettings, "identityEndpoint" | "documentsOrigin">): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self' ${new URL(settings.identityEndpoint).origin}`,
    `frame-src ${new URL(settings.documentsOrigin).origin}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The page with the settings in its meta tags; fails (at cold start) on a page built without the placeholders. */
export function fillPage(page: string, settings: Pick<ConsoleSettings, "identityEndpoint" | "clientId">): string {
  let filled = page;
  for (const [name, placeholder] of Object.entries(PLACEHOLDERS) as [keyof typeof PLACEHOLDERS, string][]) {
    if (!filled.includes(placeholder)) throw new Error(`The console page has no ${placeholder} to fill`);
    filled = filled.replaceAll(placeholder, escapeHtml(settings[name]));
  }
  return filled;
}

interface Served {
  contentType: string;
  body: string;
  etag: string;
}

function served(contentType: string, body: string): Served {
  return { contentType, body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

/**
 * Answers the console's two routes from files read once: `GET /backoffice` (the page; asked
 * without its trailing slash, a redirect to it, so the page's relative URLs resolve under
 * `backoffice/`) and `GET /backoffice/assets/{file}` (the script and the styles, by exact name).
 */
export function consoleResponder(
  files: Record<ConsoleFile, string>,
  settings: ConsoleSettings,
): (event: APIGatewayProxyEvent) => APIGatewayProxyResult {
  const page = served("text/html; charset=utf-8", fillPage(files["index.html"], settings));
  const assets = new Map<string, Served>([
    ["console.js", served("text/javascript; charset=utf-8", files["console.js"])],
    ["console.css", served("text/css; charset=utf-8", files["console.css"])],
  ]);
  const policy = consolePolicy(settings);

  return (event) => {
    const requestId = event.requestContext.requestId;
    const common = {
      [REQUEST_ID_HEADER]: requestId,
      "Content-Security-Policy": policy,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "X-Frame-Options": "DENY",
    };
    if (event.resource === "/backoffice" && !event.path.endsWith("/")) {
      return { statusCode: 308, headers: { ...common, Location: "backoffice/" }, body: "" };
    }
    const file = event.resource === "/backoffice" ? page : assets.get(event.pathParameters?.file ?? "");
    if (!file) {
      const problem = problemBody("route_not_found", "The console has no file of this name", requestId);
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
