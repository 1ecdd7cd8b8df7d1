/**
 * The part of pdf.js the console uses (pdfjs-dist, served beside the console as `assets/pdf.mjs`).
 * Types only, naming no DOM type (`Canvas` is the browser's canvas element), so that
 * test/backoffice/viewer.test.ts, type-checked without the DOM, holds them to pdfjs-dist's own.
 */
export interface PdfViewport {
  width: number;
  height: number;
  convertToViewportRectangle(rect: number[]): number[];
}

export interface PdfRenderTask {
  promise: Promise<void>;
  cancel(): void;
}

/** A run of text as pdf.js reads it: its text, its transform (`[4]`, `[5]`: where its baseline starts) and its size. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

export interface PdfPage<Canvas> {
  getViewport(parameters: { scale: number; rotation?: number }): PdfViewport;
  render(parameters: { canvas: Canvas; viewport: PdfViewport; transform?: number[] }): PdfRenderTask;
  /** The page's text runs, and marked-content items that carry none. */
  getTextContent(): Promise<{ items: (PdfTextItem | { type: string })[] }>;
}

export interface PdfDocument<Canvas> {
  numPages: number;
  getPage(pageNumber: number): Promise<PdfPage<Canvas>>;
  destroy(): Promise<void>;
}

export interface Pdfjs<Canvas> {
  GlobalWorkerOptions: { workerSrc: string };
  getDocument(source: { data: Uint8Array; isEvalSupported: boolean }): { promise: Promise<PdfDocument<Canvas>> };
}
