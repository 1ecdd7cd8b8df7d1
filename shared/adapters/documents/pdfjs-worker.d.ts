/** pdf.js's worker module, imported to run in this thread (see pdf.ts); it ships no types. */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
