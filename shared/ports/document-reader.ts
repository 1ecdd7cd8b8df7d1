import type { FileType } from "../domain/document-types.ts";

/** Opens documents, inside a budget: a decompression bomb is cheap to send. */
export interface DocumentReader {
  /** Undefined when the document opens; otherwise why it does not, in a sentence. */
  unreadableBecause(fileType: FileType, bytes: Uint8Array): Promise<string | undefined>;
}
