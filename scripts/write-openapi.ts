/** `npm run openapi`: writes the generated documents (public, backoffice, portal) at the project root. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderBackofficeDocument } from "../openapi/backoffice.ts";
import { renderDocument } from "../openapi/document.ts";
import { renderPortalDocument } from "../openapi/portal.ts";

for (const [file, text] of [
  ["openapi.json", renderDocument()],
  ["openapi-backoffice.json", renderBackofficeDocument()],
  ["openapi-portal.json", renderPortalDocument()],
] as const) {
  const target = path.resolve(__dirname, "..", file);
  writeFileSync(target, text);
  process.stdout.write(`Wrote ${path.relative(process.cwd(), target)} (${Buffer.byteLength(text)} bytes)\n`);
}
