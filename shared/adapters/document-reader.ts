/** Opens PDFs (pdf-lib), PNGs (pngjs) and JPEGs (jpeg-js), refusing images past a pixel budget. */
import type { FileType } from "../domain/document-types.ts";
import type { DocumentReader } from "../ports/document-reader.ts";

/** Images larger than this are refused before decoding (a decompression bomb is cheap to send). */
export const MAX_IMAGE_MEGAPIXELS = 50;

function pngDimensions(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // IHDR follows the 8-byte signature and the chunk's length and type.
  return { width: view.getUint32(16), height: view.getUint32(20) };
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
      if (bytes.length < 24) return "The PNG is truncated";
      const { width, height } = pngDimensions(bytes);
      if (width * height > MAX_IMAGE_MEGAPIXELS * 1_000_000)
        return `The image exceeds ${MAX_IMAGE_MEGAPIXELS} megapixels`;
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
