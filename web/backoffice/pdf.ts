/**
 * PDFs drawn in the page by pdf.js (pdfjs-dist's own build, served beside the console as
 * `assets/pdf.mjs` with its worker `assets/pdf.worker.mjs`, and loaded only when a PDF is
 * shown): every page to a canvas at a scale and rotation, the runs the other copy lacks marked
 * over it, and each page's text read for the comparison.
 */
import { h } from "../common/dom.ts";
import type { Pdfjs, PdfPage as PdfjsPage, PdfRenderTask, PdfViewport } from "./pdfjs.ts";
import type { Drawing } from "./photo.ts";
import { type LineDifference, linesOf, type TextLine, type TextRun } from "./text-diff.ts";

type Library = Pdfjs<HTMLCanvasElement>;
type PdfPage = PdfjsPage<HTMLCanvasElement>;

const asset = (file: string) => new URL(`assets/${file}`, document.baseURI).href;

let loading: Promise<Library> | undefined;

/** pdf.js, imported once and on first use; a failed import is tried again next time. */
function pdfjs(): Promise<Library> {
  loading ??= (import(asset("pdf.mjs")) as Promise<Library>).then((module) => {
    module.GlobalWorkerOptions.workerSrc = asset("pdf.worker.mjs");
    return module;
  });
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Canvases stay under this many pixels, however far the reviewer zooms. */
const MAX_CANVAS_PIXELS = 16_777_216;

interface ShownPage {
  page: PdfPage;
  box: HTMLElement;
  task: PdfRenderTask | undefined;
  /** Where the canvas shown was drawn at, once one is. */
  viewport: PdfViewport | undefined;
}

/** One PDF copy in its pane: its pages drawn, its text, and its marks. */
export interface PdfCopy extends Drawing {
  lines(): Promise<TextLine[]>;
  mark(differences: LineDifference[]): void;
  /** Scrolls the pane so `difference`'s marked text (or its line) is at its centre. */
  reveal(difference: LineDifference): void;
  close(): void;
}

/** The run's box in the page's units: from a little under its baseline to the top of its letters. */
function runBox(run: TextRun): number[] {
  return [run.x, run.y - run.height * 0.25, run.x + run.width, run.y + run.height];
}

/** The page's marks over it, where its canvas was drawn; none before it is. */
function drawMarks(shown: ShownPage, runs: readonly TextRun[]): void {
  const { viewport } = shown;
  for (const old of shown.box.querySelectorAll(".viewer-mark")) old.remove();
  if (!viewport) return;
  for (const run of runs) {
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle(runBox(run));
    const mark = h("div", { class: "viewer-mark", "aria-hidden": "true" });
    Object.assign(mark.style, {
      left: `${Math.min(x1, x2)}px`,
      top: `${Math.min(y1, y2)}px`,
      width: `${Math.abs(x2 - x1)}px`,
      height: `${Math.abs(y2 - y1)}px`,
    });
    shown.box.append(mark);
  }
}

/**
 * Draws the page to a new canvas named `name` at `scale` and `rotation` (cancelling a drawing
 * still under way), which takes the old one's place once drawn, its marks (`runs()`) over it.
 */
function drawPage(shown: ShownPage, scale: number, rotation: number, name: string, runs: () => TextRun[]): void {
  shown.task?.cancel();
  const viewport = shown.page.getViewport({ scale, rotation });
  const ratio = Math.min(
    window.devicePixelRatio || 1,
    Math.sqrt(MAX_CANVAS_PIXELS / Math.max(1, viewport.width * viewport.height)),
  );
  const canvas = h("canvas", {
    width: Math.floor(viewport.width * ratio),
    height: Math.floor(viewport.height * ratio),
    role: "img",
    "aria-label": name,
  });
  const size = { width: `${viewport.width}px`, height: `${viewport.height}px` };
  Object.assign(canvas.style, size);
  Object.assign(shown.box.style, size);
  const task = shown.page.render({
    canvas,
    viewport,
    ...(ratio === 1 ? {} : { transform: [ratio, 0, 0, ratio, 0, 0] }),
  });
  shown.task = task;
  task.promise.then(
    () => {
      shown.box.querySelector("canvas")?.remove();
      shown.box.prepend(canvas);
      shown.viewport = viewport;
      drawMarks(shown, runs());
    },
    // Cancelled by a newer drawing, or a page pdf.js could not draw: the newer drawing, or the box, stays.
    () => undefined,
  );
}

/** The text of page `number` as lines. */
async function pageLines(shown: ShownPage, number: number): Promise<TextLine[]> {
  const content = await shown.page.getTextContent();
  const runs = content.items.flatMap((item) =>
    "str" in item
      ? [
          {
            text: item.str,
            x: item.transform[4] ?? 0,
            y: item.transform[5] ?? 0,
            width: item.width,
            height: item.height,
          },
        ]
      : [],
  );
  return linesOf(number, runs);
}

/** Opens the PDF `bytes` into `pane`, one box per page, each named `label(page, pages)`. */
export async function openPdf(
  bytes: Uint8Array,
  pane: HTMLElement,
  label: (page: number, pages: number) => string,
): Promise<PdfCopy> {
  const library = await pdfjs();
  // No code generated from the file: the policy allows no eval, and a document should never need it.
  const pdf = await library.getDocument({ data: bytes, isEvalSupported: false }).promise;
  const pages: ShownPage[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const box = h("div", { class: "viewer-page" });
    pages.push({ page: await pdf.getPage(number), box, task: undefined, viewport: undefined });
  }
  pane.replaceChildren(...pages.map((shown) => shown.box));
  let marks: TextRun[][] = pages.map(() => []);
  let drawn: { scale: number; rotation: number } | undefined;

  return {
    size(rotation) {
      const sizes = pages.map((shown) => shown.page.getViewport({ scale: 1, rotation }));
      return {
        width: Math.max(...sizes.map((viewport) => viewport.width)),
        height: Math.max(...sizes.map((viewport) => viewport.height)),
      };
    },
    draw(scale, rotation) {
      if (drawn?.scale === scale && drawn.rotation === rotation) return;
      drawn = { scale, rotation };
      pages.forEach((shown, index) => {
        drawPage(shown, scale, rotation, label(index + 1, pages.length), () => marks[index] ?? []);
      });
    },
    async lines() {
      const lines: TextLine[] = [];
      for (const [index, shown] of pages.entries()) lines.push(...(await pageLines(shown, index + 1)));
      return lines;
    },
    mark(differences) {
      marks = pages.map((_, index) =>
        differences
          .filter((difference) => difference.line.page === index + 1)
          .flatMap((difference) => difference.marked),
      );
      for (const [index, shown] of pages.entries()) drawMarks(shown, marks[index] ?? []);
    },
    reveal({ line, marked }) {
      const shown = pages[line.page - 1];
      const run = marked[0] ?? line.runs[0];
      if (!shown || !run || !drawn) return;
      // Where the line is on its page as drawn now, then on the pane's scrolled content.
      const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = shown.page.getViewport(drawn).convertToViewportRectangle(runBox(run));
      const page = shown.box.getBoundingClientRect();
      const view = pane.getBoundingClientRect();
      pane.scrollTo({
        left: page.left - view.left + pane.scrollLeft + (x1 + x2) / 2 - pane.clientWidth / 2,
        top: page.top - view.top + pane.scrollTop + (y1 + y2) / 2 - pane.clientHeight / 2,
      });
    },
    close() {
      for (const shown of pages) shown.task?.cancel();
      void pdf.destroy();
    },
  };
}
