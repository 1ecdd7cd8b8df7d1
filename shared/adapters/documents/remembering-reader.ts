/**
 * A reader that remembers what it read, by the document's bytes: the e-Devlet simulator reads
 * the number printed in a held certificate at several steps of every lookup, and the same bytes
 * always read the same, so each file is opened once while it stays unchanged. The most recent
 * `capacity` documents are remembered.
 */
import { createHash } from "node:crypto";
import type { FileType } from "../../domain/document-types.ts";
import type { DocumentReader, ReadResult } from "../../ports/document-reader.ts";

export function rememberingReader(reader: DocumentReader, capacity = 64): DocumentReader {
  const remembered = new Map<string, Promise<ReadResult>>();
  return {
    read(fileType: FileType, bytes: Uint8Array): Promise<ReadResult> {
      const key = `${fileType}:${createHash("sha256").update(bytes).digest("hex")}`;
      const known = remembered.get(key);
      if (known) return known;
      const reading = reader.read(fileType, bytes);
      remembered.set(key, reading);
      // A read that failed is not kept: the next lookup opens the file again.
      reading.catch(() => remembered.delete(key));
      const oldest = remembered.keys().next().value;
      if (remembered.size > capacity && oldest !== undefined) remembered.delete(oldest);
      return reading;
    },
  };
}
