/**
 * The API reference as the local runtime serves it: the document at `/openapi.json` and a page
 * at `/docs` rendered by Redoc's standalone bundle from node_modules (no CDN: these machines
 * have no internet). These are not API routes: no key, not in the route table, and the
 * deployed stack does not serve them.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { buildDocument } from "./document.ts";

export interface ReferenceResponse {
  headers: Record<string, string>;
  body: string;
}

const REDOC_BUNDLE_PATH = "/docs/redoc.standalone.js";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Verification API reference</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <redoc spec-url="/openapi.json" expand-responses="200,201" path-in-middle-panel="true"></redoc>
    <script src="${REDOC_BUNDLE_PATH}"></script>
  </body>
</html>
`;

/**
 * The page loads nothing but this server's own files: Redoc's side menu links a logo on a CDN,
 * which the policy blocks rather than let the browser try the network.
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  // Redoc styles its components with inline style elements, and runs its search index in a blob worker.
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
].join("; ");

/** Built on first request: the document from the code this runtime runs, the bundle from disk. */
const bodies = new Map<string, ReferenceResponse>();

function build(pathname: string): ReferenceResponse | undefined {
  switch (pathname) {
    case "/openapi.json":
      return { headers: { "Content-Type": "application/json" }, body: JSON.stringify(buildDocument()) };
    case "/docs":
      return {
        headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": PAGE_POLICY },
        body: PAGE,
      };
    case REDOC_BUNDLE_PATH:
      return {
        headers: { "Content-Type": "text/javascript; charset=utf-8" },
        body: readFileSync(createRequire(__filename).resolve("redoc/bundles/redoc.standalone.js"), "utf8"),
      };
    default:
      return undefined;
  }
}

/** The reference response for a `GET` of one of its paths, or undefined for anything else. */
export function referenceResponse(method: string | undefined, url: string | undefined): ReferenceResponse | undefined {
  if (method !== "GET") return undefined;
  const pathname = new URL(url ?? "/", "http://localhost").pathname;
  const cached = bodies.get(pathname);
  if (cached) return cached;
  const built = build(pathname);
  if (built) bodies.set(pathname, built);
  return built;
}
