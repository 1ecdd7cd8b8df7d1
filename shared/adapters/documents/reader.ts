/**
 * The document reader: a PDF's text lines and QR codes (pdf.ts), a photo's QR codes (photo.ts).
 *
 * pdf.js keeps all it decodes and has no limit of its own, and it works in one stretch that no
 * timer can interrupt: a PDF of a few kilobytes can hold the function for minutes or take it
 * past its memory. So the reading happens in a thread of its own (thread.ts), which this module
 * stops when the read goes over its time or makes the process grow past its memory budget
 * (budget.ts); the document is then unreadable, and the function carries on. The thread loads
 * the libraries when it first reads: a function that never reads a document never starts it.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { UnreadableReason } from "../../domain/check-details.ts";
import type { FileType } from "../../domain/document-types.ts";
import type { DocumentReader, ReadResult } from "../../ports/document-reader.ts";
import {
  MEMORY_CHECK_INTERVAL_MS,
  MiB,
  READ_MEMORY_BUDGET_BYTES,
  READ_TIME_BUDGET_MS,
  READER_HEAP_MIB,
  Unreadable,
} from "./budget.ts";
import { photoHeader } from "./images.ts";
import { READER_THREAD_MARK, type ReadReply, type ReadRequest } from "./protocol.ts";

/** The thread's code as the functions' bundles carry it, beside their own (infra/bundling.ts builds it). */
export const READER_THREAD_FILE = "document-reader.js";

export interface ReaderLimits {
  timeMs: number;
  memoryBytes: number;
}

function startThread(): Worker {
  const options = {
    workerData: { [READER_THREAD_MARK]: true },
    resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MIB },
  };
  const bundled = path.join(__dirname, READER_THREAD_FILE);
  const thread = existsSync(bundled)
    ? new Worker(bundled, options)
    : new Worker(
        // Unbundled (tsx, the tests, the local runtime): the TypeScript source, compiled as it loads.
        `require(${JSON.stringify(createRequire(__filename).resolve("tsx/cjs"))});` +
          `require(${JSON.stringify(path.join(__dirname, "thread.ts"))});`,
        { ...options, eval: true },
      );
  // An error is also handled by the read in progress, if any; an idle thread that fails is dropped.
  thread.on("error", () => {});
  return thread;
}

const refused = (reason: UnreadableReason): ReadResult => ({ readable: false, reason });

/** A reader with its own thread, reading one document at a time within `limits`. */
export function documentReader(
  limits: ReaderLimits = { timeMs: READ_TIME_BUDGET_MS, memoryBytes: READ_MEMORY_BUDGET_BYTES },
): DocumentReader {
  let idle: Worker | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const overTime: UnreadableReason = { code: "read_too_slow", params: { seconds: limits.timeMs / 1000 } };
  const overMemory: UnreadableReason = {
    code: "read_too_large",
    params: { mib: Math.round(limits.memoryBytes / MiB) },
  };

  const startOwnThread = () => {
    const thread = startThread();
    // A kept thread that ends on its own (it should not) is not used again.
    thread.once("exit", () => {
      if (idle === thread) idle = undefined;
    });
    return thread;
  };

  const readInThread = (fileType: FileType, bytes: Uint8Array): Promise<ReadResult> => {
    const thread = idle ?? startOwnThread();
    idle = undefined;
    thread.ref();
    const startRss = process.memoryUsage.rss();
    return new Promise<ReadResult>((resolve, reject) => {
      let settled = false;
      const finish = (keepThread: boolean, settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        thread.off("message", onMessage).off("error", onError).off("exit", onExit);
        if (keepThread) {
          // Kept for the next read; it does not keep the process alive meanwhile.
          thread.unref();
          idle = thread;
        } else {
          void thread.terminate();
        }
        settle();
      };
      const stop = (reason: UnreadableReason) => finish(false, () => resolve(refused(reason)));
      const onMessage = (reply: ReadReply) =>
        "result" in reply
          ? finish(true, () => resolve(reply.result))
          : finish(true, () => reject(new Error(`The document reader failed: ${reply.failure}`)));
      const onError = (error: Error & { code?: string }) =>
        error.code === "ERR_WORKER_OUT_OF_MEMORY" ? stop(overMemory) : finish(false, () => reject(error));
      const onExit = (code: number) =>
        finish(false, () => reject(new Error(`The document reader's thread stopped (exit code ${code})`)));
      const timer = setTimeout(() => stop(overTime), limits.timeMs);
      const watch = setInterval(() => {
        if (process.memoryUsage.rss() - startRss > limits.memoryBytes) stop(overMemory);
      }, MEMORY_CHECK_INTERVAL_MS);
      thread.on("message", onMessage).on("error", onError).on("exit", onExit);
      // A copy, handed over: the caller keeps its bytes.
      const request: ReadRequest = { fileType, bytes: new Uint8Array(bytes) };
      thread.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    });
  };

  return {
    async read(fileType, bytes) {
      // A photo too large to decode is refused from its header, without waking the thread.
      if (fileType !== "pdf") {
        try {
          photoHeader(fileType, bytes);
        } catch (error) {
          if (error instanceof Unreadable) return refused(error.reason);
          throw error;
        }
      }
      const turn = queue.then(() => readInThread(fileType, bytes));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}

/** The functions' reader: one thread per process, started at the first read. */
export const libraryDocumentReader: DocumentReader = documentReader();
