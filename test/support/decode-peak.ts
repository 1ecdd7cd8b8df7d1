/**
 * Opens one document with the functions' document reader in a process of its own and prints
 * what it said and the process's peak resident memory, as JSON: `node --import tsx
 * test/support/decode-peak.ts <file> <pdf|png|jpeg>`.
 */
import { readFileSync } from "node:fs";
import { libraryDocumentReader } from "#shared/adapters/document-reader";
import type { FileType } from "#shared/domain/document-types";

async function main(): Promise<void> {
  const [file, fileType] = process.argv.slice(2);
  if (!file || !fileType) throw new Error("usage: decode-peak.ts <file> <pdf|png|jpeg>");
  const unreadable = await libraryDocumentReader.unreadableBecause(fileType as FileType, readFileSync(file));
  const peak = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ unreadable: unreadable ?? null, peak_rss_mib: Math.round(peak) })}\n`);
}

void main();
