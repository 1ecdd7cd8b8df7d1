/**
 * PDFs, read with pdf.js (the legacy build, which runs on Node 20 as well as Lambda's 24): the
 * text layer with its positions, and the images the pages paint, for their QR codes. Nothing
 * is rendered: no canvas, no fonts loaded into the system, no code generated from the file.
 */
import type { DocumentContent } from "../../ports/document-reader.ts";
import { MAX_PDF_IMAGE_PIXELS, MAX_PDF_PAGES, Unreadable } from "./budget.ts";
import { ensureDomMatrix } from "./dom-matrix.ts";
import { linesOf, type TextRun } from "./lines.ts";
import { loadQrDecoder, type Pixels } from "./qr.ts";

type Pdfjs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<Pdfjs["getDocument"]>["promise"]>["getPage"]>>;

let loading: Promise<Pdfjs> | undefined;

/** pdf.js's start-up warnings about what only rendering needs: a canvas package, ImageData, Path2D. */
const RENDERING_WARNING = /^Warning: Cannot (access the `require` function|load "@napi-rs\/canvas"|polyfill)/;

/**
 * pdf.js on first use. It parses in a worker; in Node it runs that worker's code in this
 * thread (a "fake worker"), which it takes from `globalThis.pdfjsWorker` when set and otherwise
 * imports by a file path that a bundle does not have. Importing the worker module here, by
 * name, puts it in the bundle and hands it over. pdf.js logs, once as it loads, that it cannot
 * render without a canvas package; nothing here renders, so those lines are kept out of the log.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    ensureDomMatrix();
    // The worker module formats an error's stack as it loads (a feature probe of its polyfills).
    // With source maps on, as the functions run, that parses the bundle's whole source map: about
    // 350 ms and 90 MB at the first read, for a stack nobody sees. Off while it loads, on after.
    const mapped = process.sourceMapsEnabled;
    if (mapped) process.setSourceMapsEnabled(false);
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === "string" && RENDERING_WARNING.test(args[0])) return;
      warn(...args);
    };
    try {
      const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return await import("pdfjs-dist/legacy/build/pdf.mjs");
    } finally {
      console.warn = warn;
      if (mapped) process.setSourceMapsEnabled(true);
    }
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** A decoded image as pdf.js hands it over. */
interface PdfImage {
  width: number;
  height: number;
  /** 1: 1 bit a pixel, rows padded to bytes, 0 black; 2: RGB; 3: RGBA; none: an image mask, 0 painted. */
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

const GRAYSCALE_1BPP = 1;
const RGB_24BPP = 2;
const RGBA_32BPP = 3;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A QR code has at least 21 modules a side. */
const SMALLEST_QR_SIDE = 21;

/**
 * The image as RGBA over a white page, as the QR reader takes it. RGBA is composited in place:
 * pdf.js hands over its own copy and the page is never rendered.
 */
export function pixelsOf(image: PdfImage): Pixels | undefined {
  const { width, height, kind, data } = image;
  if (!data || width < SMALLEST_QR_SIDE || height < SMALLEST_QR_SIDE) return undefined;
  const pixels = width * height;
  if (kind === RGBA_32BPP) {
    if (data.length < pixels * 4) return undefined;
    for (let i = 0; i < pixels * 4; i += 4) {
      const alpha = data[i + 3] ?? 255;
      if (alpha === 255) continue;
      // What shows through is the white page: 255 where transparent, the colour where opaque.
      for (let c = i; c < i + 3; c++) data[c] = 255 - Math.round(((255 - (data[c] ?? 0)) * alpha) / 255);
      data[i + 3] = 255;
    }
    return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, pixels * 4), width, height };
  }
  const rgba = new Uint8ClampedArray(pixels * 4);
  if (kind === RGB_24BPP) {
    if (data.length < pixels * 3) return undefined;
    if (LITTLE_ENDIAN) {
      // A pixel a 32-bit word, R in its lowest byte: a third of the time of byte by byte.
      const words = new Uint32Array(rgba.buffer);
      for (let p = 0, s = 0; p < pixels; p++, s += 3) {
        words[p] = 0xff000000 | ((data[s + 2] ?? 0) << 16) | ((data[s + 1] ?? 0) << 8) | (data[s] ?? 0);
      }
    } else {
      for (let p = 0, s = 0, d = 0; p < pixels; p++, s += 3, d += 4) {
        rgba[d] = data[s] ?? 0;
        rgba[d + 1] = data[s + 1] ?? 0;
        rgba[d + 2] = data[s + 2] ?? 0;
        rgba[d + 3] = 255;
      }
    }
    return { data: rgba, width, height };
  }
  // One bit a pixel, a row starting on a byte: a greyscale image (1 white) or a mask (1 unpainted).
  if (kind !== undefined && kind !== GRAYSCALE_1BPP) return undefined;
  const rowBytes = Math.ceil(width / 8);
  if (data.length < rowBytes * height) return undefined;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = ((data[y * rowBytes + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1;
      const d = (y * width + x) * 4;
      const v = bit ? 255 : 0;
      rgba[d] = v;
      rgba[d + 1] = v;
      rgba[d + 2] = v;
      rgba[d + 3] = 255;
    }
  }
  return { data: rgba, width, height };
}

/** The page's text as runs in the page's own orientation (its /Rotate applied). */
async function textRuns(pdfjs: Pdfjs, page: PdfPage): Promise<TextRun[]> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!("str" in item) || item.str.length === 0) continue;
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = pdfjs.Util.transform(viewport.transform, item.transform);
    runs.push({
      text: item.str,
      x,
      y,
      width: item.width,
      size: Math.hypot(c, d),
      horizontal: a > 0 && Math.abs(b) <= 0.02 * a,
    });
  }
  return runs;
}

type ImageSource = { objId: string } | { image: PdfImage };

/** Every image the page paints: XObjects and inline images, colour and masks. */
function paintedImages(pdfjs: Pdfjs, fnArray: number[], argsArray: unknown[][]): ImageSource[] {
  const { OPS } = pdfjs;
  const sources: ImageSource[] = [];
  const add = (data: unknown, fallback?: unknown) => {
    if (typeof data === "string") sources.push({ objId: data });
    else if (ArrayBuffer.isView(data) && fallback) sources.push({ image: fallback as PdfImage });
  };
  fnArray.forEach((fn, i) => {
    const args = argsArray[i] ?? [];
    const first = args[0] as { data?: unknown } | string | undefined;
    switch (fn) {
      case OPS.paintImageXObject:
      case OPS.paintImageXObjectRepeat:
        add(first);
        break;
      case OPS.paintInlineImageXObject:
      case OPS.paintInlineImageXObjectGroup:
        if (first && typeof first === "object") sources.push({ image: first as PdfImage });
        break;
      case OPS.paintImageMaskXObject:
      case OPS.paintImageMaskXObjectRepeat:
        if (first && typeof first === "object") add(first.data, first);
        break;
      case OPS.paintImageMaskXObjectGroup:
        for (const mask of (first ?? []) as unknown as { data?: unknown }[]) add(mask.data, mask);
        break;
    }
  });
  return sources;
}

/** The object pdf.js sent for `objId`, once it has arrived (null when it could not decode it). */
function objectOf(page: PdfPage, objId: string): Promise<PdfImage | null> {
  // Images shared by several pages are kept with the document, the others with their page.
  const objects = objId.startsWith("g_") ? page.commonObjs : page.objs;
  return new Promise((resolve) => objects.get(objId, resolve as (data: unknown) => void));
}

/** Whether the file names an encryption dictionary (in its trailer), for a file pdf.js could not open. */
function declaresEncryption(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes("/Encrypt");
}

/** How a document is opened: parsed, never rendered, nothing fetched, nothing evaluated. */
function documentOptions(pdfjs: Pdfjs, bytes: Uint8Array) {
  return {
    // A copy, as a plain Uint8Array: pdf.js takes over (transfers to its parser) the buffer it
    // is given, and the caller keeps using its own.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    // The WebAssembly decoders (JPEG 2000, JBIG2, colour profiles) would be read from files:
    // without them JBIG2 and CCITT images decode in JavaScript and JPEG 2000 images are skipped.
    useWasm: false,
    maxImageSize: MAX_PDF_IMAGE_PIXELS,
    // Errors only: a damaged font or image is skipped with a warning the function's log does not need.
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  };
}

/**
 * The PDF's lines and QR codes; `Unreadable` when it cannot be read. pdf.js has no limit on
 * what it decodes: this runs in the reader's own thread, which is stopped when the read goes
 * over its time or memory (reader.ts).
 */
export async function readPdf(bytes: Uint8Array): Promise<DocumentContent> {
  const [pdfjs, decoder] = await Promise.all([loadPdfjs(), loadQrDecoder()]);
  const task = pdfjs.getDocument(documentOptions(pdfjs, bytes));
  const session = decoder.session();
  try {
    let pdf: Awaited<typeof task.promise>;
    try {
      pdf = await task.promise;
    } catch (error) {
      // A password pdf.js lacks, or an encryption dictionary it cannot use: either way encrypted.
      if ((error as Error).name === "PasswordException" || declaresEncryption(bytes)) {
        throw new Unreadable("pdf_encrypted");
      }
      throw error;
    }
    const { info } = await pdf.getMetadata();
    if ((info as { EncryptFilterName?: string | null }).EncryptFilterName) throw new Unreadable("pdf_encrypted");
    if (pdf.numPages === 0) throw new Unreadable("pdf_no_pages");
    if (pdf.numPages > MAX_PDF_PAGES) throw new Unreadable("pdf_too_many_pages", { max_pages: MAX_PDF_PAGES });

    const lines: string[] = [];
    const linesPerPage: number[] = [];
    const qrCodes = new Set<string>();
    const seen = new Set<string>();
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const pageLines = linesOf(await textRuns(pdfjs, page));
      lines.push(...pageLines);
      linesPerPage.push(pageLines.length);
      const { fnArray, argsArray } = await page.getOperatorList();
      for (const source of paintedImages(pdfjs, fnArray, argsArray)) {
        if ("objId" in source && seen.has(source.objId)) continue;
        const image = "objId" in source ? await objectOf(page, source.objId) : source.image;
        if ("objId" in source) {
          seen.add(source.objId);
          page.objs.delete(source.objId);
        }
        const pixels = image ? pixelsOf(image) : undefined;
        if (!pixels) continue;
        try {
          for (const code of await session.inPixels(pixels)) qrCodes.add(code);
        } catch {
          // The decoder gave up on this image (out of its memory, say); the others still count.
        }
      }
      page.cleanup();
    }
    return { lines, linesPerPage, qrCodes: [...qrCodes] };
  } catch (error) {
    if (error instanceof Unreadable) throw error;
    throw new Unreadable("pdf_unreadable");
  } finally {
    session.close();
    await task.destroy();
  }
}
