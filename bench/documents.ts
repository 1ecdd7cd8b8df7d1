/**
 * Reading documents, as the processing functions do: the reader's time per kind of document
 * (a certificate's text PDF, a PDF whose only content is its QR code, the two photo formats),
 * warm and at a fresh reader's first read; and a 10 MiB PDF read in a process of its own, for
 * its peak memory against the function's 512 MB, then compared as processing compares an upload
 * with the issuer's copy: the same PDF saved again by another writer (other bytes, the same text),
 * both read, then compared byte for byte and by their text.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PDFDocument } from "pdf-lib";
import { documentReader } from "#shared/adapters/documents/reader";
import type { FileType } from "#shared/domain/document-types";
import type { DecodePeak } from "../test/support/decode-peak.ts";
import { encodePng, photoAlbumPdf, qrImage } from "../test/support/documents.ts";
import { type Percentiles, percentiles, round, timed } from "./stats.ts";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..");
const PUBLISHED = path.join(ROOT, "docs/test-documents");
const LINK = "https://www.turkiye.gov.tr/belge-dogrulama?barkod=TESTYOK-0001-AKTIF&tckn=10000000146";

export interface DocumentKindRow {
  kind: string;
  file: string;
  bytes: number;
  /** A fresh reader's first read: its thread starts and loads the libraries. */
  firstReadMs: number;
  warm: Percentiles;
}

export interface DocumentsResult {
  kinds: DocumentKindRow[];
  largePdf: { bytes: number; readMs: number; rssBeforeMiB: number; peakRssMiB: number };
  /** The 10 MiB PDF against its re-saved copy, as processing compares an upload with the issuer's copy. */
  comparison: { copyBytes: number; readMs: number; copyReadMs: number; compareMs: number; peakRssMiB: number };
}

/** The measurement of one read (and comparison) in a process of its own. */
async function peakOf(files: string[]): Promise<DecodePeak> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "test/support/decode-peak.ts", ...files], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const peak = JSON.parse(stdout) as DecodePeak;
  if (peak.unreadable !== null) throw new Error(`The 10 MiB PDF was not read: ${peak.unreadable}`);
  return peak;
}

/** A one-page PDF with no text, only the QR code's image: the barcode can come from nowhere else. */
async function qrOnlyPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const image = await pdf.embedPng(encodePng(await qrImage(LINK), 0));
  page.drawImage(image, { x: 420, y: 660, width: 120, height: 120 });
  return pdf.save({ useObjectStreams: false });
}

async function kinds(): Promise<{ kind: string; file: string; fileType: FileType; bytes: Uint8Array }[]> {
  const published = async (file: string) => new Uint8Array(await readFile(path.join(PUBLISHED, file)));
  return [
    { kind: "text PDF", file: "yok-active.pdf", fileType: "pdf", bytes: await published("yok-active.pdf") },
    { kind: "QR-only PDF", file: "(generated)", fileType: "pdf", bytes: await qrOnlyPdf() },
    { kind: "photo, PNG", file: "yok-photo.png", fileType: "png", bytes: await published("yok-photo.png") },
    { kind: "photo, JPEG", file: "gsb-photo.jpg", fileType: "jpeg", bytes: await published("gsb-photo.jpg") },
  ];
}

export async function measureDocuments(samples: number): Promise<DocumentsResult> {
  const rows: DocumentKindRow[] = [];
  for (const { kind, file, fileType, bytes } of await kinds()) {
    const reader = documentReader();
    const first = await timed(() => reader.read(fileType, bytes));
    if (!first.value.readable || first.value.content.qrCodes.length === 0) {
      throw new Error(`The ${kind} was not read as a certificate: ${JSON.stringify(first.value)}`);
    }
    const warm: number[] = [];
    for (let i = 0; i < samples; i += 1) warm.push((await timed(() => reader.read(fileType, bytes))).ms);
    rows.push({ kind, file, bytes: bytes.length, firstReadMs: round(first.ms), warm: percentiles(warm) });
  }

  const folder = await mkdtemp(path.join(os.tmpdir(), "verification-api-bench-documents-"));
  try {
    const large = await photoAlbumPdf(10 * 1024 * 1024, LINK);
    const file = path.join(folder, "large.pdf");
    await writeFile(file, large);
    const peak = await peakOf([file, "pdf"]);
    // Saved again by pdf-lib without object streams: other bytes, the same text on every page.
    const resaved = await (await PDFDocument.load(large)).save({ useObjectStreams: false });
    const copyFile = path.join(folder, "resaved.pdf");
    await writeFile(copyFile, resaved);
    const both = await peakOf([file, "pdf", copyFile]);
    if (!both.comparison || both.comparison.same_bytes || !both.comparison.same_text) {
      throw new Error(
        `The re-saved copy did not compare as the same text in other bytes: ${JSON.stringify(both.comparison)}`,
      );
    }
    return {
      kinds: rows,
      largePdf: {
        bytes: large.length,
        readMs: peak.read_ms,
        rssBeforeMiB: peak.rss_before_mib,
        peakRssMiB: peak.peak_rss_mib,
      },
      comparison: {
        copyBytes: resaved.length,
        readMs: both.read_ms,
        copyReadMs: both.comparison.copy_read_ms,
        compareMs: both.comparison.compare_ms,
        peakRssMiB: both.peak_rss_mib,
      },
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
