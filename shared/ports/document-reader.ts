import type { UnreadableReason } from "../domain/check-details.ts";
import type { FileType } from "../domain/document-types.ts";

/** What a verification reads from a document. */
export interface DocumentContent {
  /** The text layer, one string per printed line, top to bottom; empty for a photo. */
  lines: string[];
  /** How many of `lines` each page holds, in page order; empty for a photo. */
  linesPerPage: number[];
  /** The text of every QR code found: in the PDF's images, or in the photo. */
  qrCodes: string[];
}

export type ReadResult = { readable: true; content: DocumentContent } | { readable: false; reason: UnreadableReason };

/** Opens documents, inside a budget: a decompression bomb is cheap to send. */
export interface DocumentReader {
  /** The document's content, or why it cannot be read. */
  read(fileType: FileType, bytes: Uint8Array): Promise<ReadResult>;
}
