/**
 * The checks every verification runs on its document, in order. A failed check stops the
 * ones after it (they read `skipped`), and names why the file could not be processed.
 */
import { acceptsFileType, type FileType, sniffFileType } from "./document-types.ts";
import type { Check, VerificationItem } from "./verification.ts";

/** Images larger than this are refused before decoding (a decompression bomb is cheap to send). */
export const MAX_IMAGE_MEGAPIXELS = 50;

export interface Inspection {
  checks: Check[];
  /** Set when the file could not be processed: the verification fails with this code. */
  failureCode?: string;
}

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

export async function inspectDocument(item: VerificationItem, bytes: Uint8Array | undefined): Promise<Inspection> {
  const checks: Check[] = [];
  const fail = (name: string, detail: string, failureCode: string): Inspection => {
    checks.push({ name, outcome: "failed", detail });
    for (const later of ["upload_present", "size_matches", "file_type_allowed", "document_readable"].slice(
      checks.length,
    )) {
      checks.push({ name: later, outcome: "skipped", detail: "Not run: an earlier check failed" });
    }
    return { checks, failureCode };
  };

  if (!bytes) return fail("upload_present", "No document is stored for this verification", "document_missing");
  checks.push({ name: "upload_present", outcome: "passed", detail: "The document is stored" });

  if (bytes.length !== item.file_size_bytes) {
    return fail(
      "size_matches",
      `The document has ${bytes.length} bytes, not the declared ${item.file_size_bytes}`,
      "file_size_mismatch",
    );
  }
  checks.push({ name: "size_matches", outcome: "passed", detail: `${bytes.length} bytes, as declared` });

  const fileType = sniffFileType(bytes);
  if (!fileType || !acceptsFileType(item.document_type, fileType)) {
    return fail(
      "file_type_allowed",
      `The content is not a file type ${item.document_type} accepts`,
      "unsupported_file_type",
    );
  }
  checks.push({ name: "file_type_allowed", outcome: "passed", detail: `The content is ${fileType.toUpperCase()}` });

  const unreadable = await unreadableBecause(fileType, bytes);
  if (unreadable) return fail("document_readable", unreadable, "document_unreadable");
  checks.push({ name: "document_readable", outcome: "passed", detail: `The ${fileType.toUpperCase()} opens` });
  return { checks };
}
