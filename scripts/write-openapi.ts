/** `npm run openapi`: writes the generated document to `openapi.json` at the project root. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderDocument } from "../openapi/document.ts";

const target = path.resolve(__dirname, "..", "openapi.json");
const text = renderDocument();
writeFileSync(target, text);
process.stdout.write(`Wrote ${path.relative(process.cwd(), target)} (${Buffer.byteLength(text)} bytes)\n`);
