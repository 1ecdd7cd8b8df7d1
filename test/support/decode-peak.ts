/**
 * Reads one document with the functions' document reader in a process of its own and prints
 * what it read, how long the read took (loading the libraries included, as a cold function's
 * first read) and the process's peak resident memory, as JSON:
 * `node --import tsx test/support/decode-peak.ts <file> <pdf|png|jpeg>`.
 */
import { readFileSync } from "node:fs";
import { libraryDocumentReader } from "#shared/adapters/documents/reader";
import type { FileType } from "#shared/domain/document-types";

export interface DecodePeak {
  unreadable: string | null;
  lines: string[];
  qr_codes: string[];
  read_ms: number;
  /** Resident memory once the document is in memory, before the read. */
  rss_before_mib: number;
  peak_rss_mib: number;
}

async function main(): Promise<void> {
  const [file, fileType] = process.argv.slice(2);
  if (!file || !fileType) throw new Error("usage: decode-peak.ts <file> <pdf|png|jpeg>");
  const bytes = readFileSync(file);
  const before = process.memoryUsage.rss() / (1024 * 1024);
  const started = performance.now();
  const read = await libraryDocumentReader.read(fileType as FileType, bytes);
  const readMs = performance.now() - started;
  const peak = process.resourceUsage().maxRSS / 1024;
  const result: DecodePeak = {
    unreadable: read.readable ? null : read.reason,
    lines: read.readable ? read.content.lines : [],
    qr_codes: read.readable ? read.content.qrCodes : [],
    read_ms: Math.round(readMs),
    rss_before_mib: Math.round(before),
    peak_rss_mib: Math.round(peak),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main();
