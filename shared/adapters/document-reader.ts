/**
 * Opens PDFs (pdf-lib), PNGs (pngjs) and JPEGs (jpeg-js). A decompression bomb is cheap to
 * send, so a PNG is judged by what decoding it would take, from its header, before it is
 * decoded.
 */

import type { FileType } from "../domain/document-types.ts";
import { MiB } from "../domain/document-types.ts";
import type { DocumentReader } from "../ports/document-reader.ts";

/** Images with more pixels than this are refused before decoding. */
export const MAX_IMAGE_MEGAPIXELS = 50;

/**
 * What decoding one PNG may take: its inflated rows plus the 8-bit RGBA the decoder hands
 * back. A 12-megapixel RGBA photo needs about 92 MiB; the function has 512 MiB in all.
 */
export const IMAGE_DECODE_BUDGET_BYTES = 128 * MiB;

const OVER_BUDGET = `The image needs more than ${IMAGE_DECODE_BUDGET_BYTES / MiB} MiB to decode`;

/** Samples per pixel of each PNG colour type. */
const PNG_CHANNELS: Partial<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Why a PNG must not be decoded, from its header alone; undefined when it may be. */
function pngRefusal(bytes: Uint8Array): string | undefined {
  // IHDR follows the 8-byte signature and the chunk's length and type.
  if (bytes.length < 26) return "The PNG is truncated";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width * height > MAX_IMAGE_MEGAPIXELS * 1_000_000) return `The image exceeds ${MAX_IMAGE_MEGAPIXELS} megapixels`;
  const bitDepth = bytes[24] ?? 0;
  const channels = PNG_CHANNELS[bytes[25] ?? -1];
  // An unknown colour type is left to the decoder, which refuses it.
  if (channels === undefined) return undefined;
  // The inflated rows (a filter byte each, then the samples) and the RGBA output.
  const inflated = height * (1 + Math.ceil((width * channels * bitDepth) / 8));
  return inflated + width * height * 4 > IMAGE_DECODE_BUDGET_BYTES ? OVER_BUDGET : undefined;
}

/**
 * Undefined when the document opens; otherwise why it does not. The readers load on first
 * use: they are most of the bundle, and a function that only confirms async uploads never
 * needs them, so its cold start does not pay for them.
 */
async function unreadableBecause(fileType: FileType, bytes: Uint8Array): Promise<string | undefined> {
  try {
    if (fileType === "pdf") {
      const { PDFDocument } = await import("pdf-lib");
      const pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
      if (pdf.isEncrypted) return "The PDF is encrypted";
      return pdf.getPageCount() > 0 ? undefined : "The PDF has no pages";
    }
    if (fileType === "png") {
      const refusal = pngRefusal(bytes);
      if (refusal) return refusal;
      const { PNG } = await import("pngjs");
      PNG.sync.read(Buffer.from(bytes));
      return undefined;
    }
    const { default: jpeg } = await import("jpeg-js");
    jpeg.decode(bytes, { maxResolutionInMP: MAX_IMAGE_MEGAPIXELS, maxMemoryUsageInMB: 512, useTArray: true });
    return undefined;
  } catch {
    return `The ${fileType.toUpperCase()} could not be read`;
  }
}

export const libraryDocumentReader: DocumentReader = { unreadableBecause };
