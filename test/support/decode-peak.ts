/**
 * Reads one document with the functions' document reader in a process of its own and prints
 * what it read, how long the read took (loading the libraries included, as a cold function's
 * first read) and the process's peak resident memory, as JSON:
 * `node --import tsx test/support/decode-peak.ts <file> <pdf|png|jpeg> [<issuer-copy.pdf>]`.
 * With an issuer's copy, processing's comparison too: the copy read as well, then compared with
 * the document byte for byte and by its text, each timed, the peak covering both reads.
 */
import { readFileSync } from "node:fs";
import { libraryDocumentReader } from "#shared/adapters/documents/reader";
import { detailSentence } from "#shared/domain/check-details";
import { sameText } from "#shared/domain/document-content";
import { type FileType, sameBytes } from "#shared/domain/document-types";
import type { DocumentContent } from "#shared/ports/document-reader";

export interface DecodePeak {
  unreadable: string | null;
  lines: string[];
  qr_codes: string[];
  read_ms: number;
  /** Resident memory once the document is in memory, before the read. */
  rss_before_mib: number;
  peak_rss_mib: number;
  /** With an issuer's copy: its read, and the comparison (bytes, then text) after both reads. */
  comparison?: { copy_read_ms: number; compare_ms: number; same_bytes: boolean; same_text: boolean };
}

/** Both reads, then the comparison processing makes, timed apart. */
async function compared(bytes: Uint8Array, content: DocumentContent, copyFile: string) {
  const copy = readFileSync(copyFile);
  const started = performance.now();
  const read = await libraryDocumentReader.read("pdf", copy);
  const copyReadMs = performance.now() - started;
  if (!read.readable) throw new Error(`The issuer's copy was not read: ${read.reason.code}`);
  const comparing = performance.now();
  const same_bytes = sameBytes(bytes, copy);
  const same_text = sameText(content, read.content);
  return {
    copy_read_ms: Math.round(copyReadMs),
    compare_ms: Math.round((performance.now() - comparing) * 100) / 100,
    same_bytes,
    same_text,
  };
}

async function main(): Promise<void> {
  const [file, fileType, copyFile] = process.argv.slice(2);
  if (!file || !fileType) throw new Error("usage: decode-peak.ts <file> <pdf|png|jpeg> [<issuer-copy.pdf>]");
  const bytes = readFileSync(file);
  const before = process.memoryUsage.rss() / (1024 * 1024);
  const started = performance.now();
  const read = await libraryDocumentReader.read(fileType as FileType, bytes);
  const readMs = performance.now() - started;
  const comparison = copyFile && read.readable ? await compared(bytes, read.content, copyFile) : undefined;
  const peak = process.resourceUsage().maxRSS / 1024;
  const result: DecodePeak = {
    unreadable: read.readable ? null : detailSentence(read.reason.code, read.reason.params),
    lines: read.readable ? read.content.lines : [],
    qr_codes: read.readable ? read.content.qrCodes : [],
    read_ms: Math.round(readMs),
    rss_before_mib: Math.round(before),
    peak_rss_mib: Math.round(peak),
    ...(comparison ? { comparison } : {}),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main();
