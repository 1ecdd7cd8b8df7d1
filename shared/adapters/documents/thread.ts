/**
 * The reader's own thread: it reads one document at a time for reader.ts, which stops the
 * thread when a read goes over its time or memory. It is only ever started as a worker thread
 * (bundled as `document-reader.js` beside a function's code; see reader.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { FileType } from "../../domain/document-types.ts";
import type { ReadResult } from "../../ports/document-reader.ts";
import { Unreadable } from "./budget.ts";
import { readPdf } from "./pdf.ts";
import { readPhoto } from "./photo.ts";
import { READER_THREAD_MARK, type ReadReply, type ReadRequest } from "./protocol.ts";

/** The document read here, in this thread: its content, or why it cannot be read. */
export async function readHere(fileType: FileType, bytes: Uint8Array): Promise<ReadResult> {
  try {
    const content = fileType === "pdf" ? await readPdf(bytes) : await readPhoto(fileType, bytes);
    return { readable: true, content };
  } catch (error) {
    if (error instanceof Unreadable) return { readable: false, reason: error.reason };
    throw error;
  }
}

if (parentPort && (workerData as Record<string, unknown> | null)?.[READER_THREAD_MARK]) {
  const port = parentPort;
  port.on("message", async ({ fileType, bytes }: ReadRequest) => {
    let reply: ReadReply;
    try {
      reply = { result: await readHere(fileType, bytes) };
    } catch (error) {
      reply = { failure: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}
