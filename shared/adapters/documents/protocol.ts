/** What reader.ts and its thread (thread.ts) say to each other. */
import type { FileType } from "../../domain/document-types.ts";
import type { ReadResult } from "../../ports/document-reader.ts";

/** Marks the worker threads reader.ts starts, so thread.ts never listens on another thread's port. */
export const READER_THREAD_MARK = "documentReaderThread";

/** A document to read, its buffer handed over. */
export interface ReadRequest {
  fileType: FileType;
  bytes: Uint8Array;
}

/** The result, or why the thread could not read at all (a library that did not load). */
export type ReadReply = { result: ReadResult } | { failure: string };
