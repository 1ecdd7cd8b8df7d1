/**
 * `npm run openapi`: writes the generated documents (public, backoffice, portal) at the project
 * root, what the pages and the functions that read no document need of the document-type
 * registry, the API's check details for the pages, the guides' lists of types (`openapi/docs-sections.ts`), then the console's and the
 * portal's wire types and the value lists they offer from theirs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DOCUMENT_REGISTRY } from "#shared/domain/document-registry";
import { renderBackofficeDocument } from "../openapi/backoffice.ts";
import { DOCS_SECTIONS, withSection } from "../openapi/docs-sections.ts";
import { renderDocument } from "../openapi/document.ts";
import { generatePageTypes, PAGE_TYPES, writePageValues } from "../openapi/page-types.ts";
import { renderPortalDocument } from "../openapi/portal.ts";
import { renderTypeFacts, TYPE_FACTS_MODULE } from "../openapi/type-facts.ts";
import { renderWebCheckDetails, WEB_CHECK_DETAILS } from "../openapi/web-check-details.ts";
import { renderWebDocumentTypes, WEB_DOCUMENT_TYPES } from "../openapi/web-document-types.ts";

const root = path.resolve(__dirname, "..");

for (const [file, text] of [
  ["openapi.json", renderDocument()],
  ["openapi-backoffice.json", renderBackofficeDocument()],
  ["openapi-portal.json", renderPortalDocument()],
  [WEB_DOCUMENT_TYPES, renderWebDocumentTypes(DOCUMENT_REGISTRY)],
  [TYPE_FACTS_MODULE, renderTypeFacts(DOCUMENT_REGISTRY)],
  [WEB_CHECK_DETAILS, renderWebCheckDetails()],
] as const) {
  const target = path.join(root, file);
  writeFileSync(target, text);
  process.stdout.write(`Wrote ${path.relative(process.cwd(), target)} (${Buffer.byteLength(text)} bytes)\n`);
}

for (const section of DOCS_SECTIONS) {
  const target = path.join(root, section.file);
  writeFileSync(target, withSection(readFileSync(target, "utf8"), section, DOCUMENT_REGISTRY));
  process.stdout.write(`Wrote ${section.name} in ${path.relative(process.cwd(), target)}\n`);
}

for (const { document, types, values, lists } of PAGE_TYPES) {
  generatePageTypes(document, types);
  writePageValues(document, lists, values);
  for (const file of [types, values]) {
    process.stdout.write(`Wrote ${path.relative(process.cwd(), path.join(root, file))} from ${document}\n`);
  }
}
