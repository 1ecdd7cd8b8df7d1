/**
 * The document viewer of an item: the upload and the issuer's copy side by side (stacked on a
 * phone), with the keys the checks read and the lines that differ in a panel beside them. One
 * toolbar for both: fit (each whole page or photo in its pane; the start), zoom in and out from
 * there (two PDFs always at the same scale), and the upload turned a quarter at a time. PDFs are
 * drawn by pdf.js from their bytes; photos are shown as images. Each copy is asked for once per
 * visit: each view is audited.
 */
import { h } from "../common/dom.ts";
import { ApiError } from "../common/problem.ts";
import type { BackofficeApi } from "./api.ts";
import { openPdf, type PdfCopy } from "./pdf.ts";
import { type Drawing, showPhoto } from "./photo.ts";
import { problemText, t, text } from "./text.ts";
import { lineDifferences } from "./text-diff.ts";
import type { TextKey } from "./text-en.ts";
import { type Comparison, keysSection, linesSection, showComparison } from "./viewer-panel.ts";
import type { DocumentCopy, StaffVerification } from "./wire.ts";

/** Zoom levels, as a share of the fit; 1 is the fit. */
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4];
const FIT = ZOOMS.indexOf(1);
/** The space kept around a page in its pane, in CSS pixels: the pane's padding on both sides, and a little more. */
const MARGIN = 20;

/** What a pane shows once its copy is read: a PDF (whose text can be compared) or a photo. */
type Shown = { kind: "pdf"; drawing: PdfCopy } | { kind: "photo"; drawing: Drawing };

interface Pane {
  copy: DocumentCopy;
  title: TextKey;
  scroller: HTMLElement;
  figure: HTMLElement;
  shown?: Shown;
}

export interface Viewer {
  /** The viewer's shortcuts: + and - zoom, 0 fits, t turns the upload; true when it took the key. */
  key(event: KeyboardEvent): boolean;
  close(): void;
}

/** Reads one copy by its link (valid a minute) and shows it: a PDF's bytes through pdf.js, a photo as an image. */
async function showCopy(api: BackofficeApi, id: string, pane: Pane): Promise<Shown> {
  const link = await api.document(id, pane.copy);
  const copy = t(pane.title);
  if (link.media_type !== "application/pdf") {
    return { kind: "photo", drawing: await showPhoto(pane.scroller, link.url, t("viewer.photo", { copy })) };
  }
  const response = await fetch(link.url, { credentials: "omit" });
  if (!response.ok) throw new Error(`The copy answered ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const drawing = await openPdf(bytes, pane.scroller, (page, pages) => t("viewer.page", { copy, page, pages }));
  return { kind: "pdf", drawing };
}

function paneOf(copy: DocumentCopy, title: TextKey): Pane {
  const scroller = h("div", {
    class: "viewer-pane",
    tabindex: "0",
    role: "region",
    "aria-labelledby": `viewer-${copy}-title`,
    "data-copy": copy,
  });
  const figure = h(
    "figure",
    { class: `copy viewer-${copy}` },
    h("figcaption", {}, h("h2", { id: `viewer-${copy}-title` }, t(title))),
    scroller,
  );
  return { copy, title, scroller, figure };
}

/** A toolbar button with its shortcut beside its words. */
function tool(label: TextKey, shortcut: string, action: () => void): HTMLButtonElement {
  const button = h("button", { type: "button" }, t(label), " ", h("kbd", { "aria-hidden": "true" }, shortcut));
  button.addEventListener("click", action);
  return button;
}

/** The two texts compared once both copies are shown, and each copy's differing runs marked. */
async function compare(upload: Shown | undefined, issuer: Shown | undefined): Promise<Comparison> {
  if (upload?.kind === "photo") return { state: "photo" };
  if (upload?.kind !== "pdf" || issuer?.kind !== "pdf") return { state: "not_two_pdfs" };
  try {
    const [uploadLines, issuerLines] = await Promise.all([upload.drawing.lines(), issuer.drawing.lines()]);
    const differences = lineDifferences(uploadLines, issuerLines);
    upload.drawing.mark(differences.upload);
    issuer.drawing.mark(differences.issuer);
    return { state: "compared", ...differences };
  } catch {
    return { state: "failed" };
  }
}

/** Draws the viewer of `verification` into `container` and reads its copies. */
export function showViewer(container: HTMLElement, api: BackofficeApi, verification: StaffVerification): Viewer {
  const upload = paneOf("upload", "item.copy.upload");
  const issuer = paneOf("issuer", "item.copy.issuer");
  // A verification by its keys had no upload: the issuer's copy is shown alone.
  const panes = verification.file_size_bytes === null ? [issuer] : [upload, issuer];
  let zoom = FIT;
  let turned = 0;
  let closed = false;

  const level = h("output", { "aria-label": t("viewer.zoom"), "aria-live": "polite" });
  const zoomOut = tool("viewer.zoom_out", "-", () => zoomTo(zoom - 1));
  const zoomIn = tool("viewer.zoom_in", "+", () => zoomTo(zoom + 1));
  const rotate = tool("viewer.rotate", "t", () => turn());
  const lines = linesSection();
  showComparison(lines, { state: "comparing" });

  const rotationOf = (pane: Pane) => (pane === upload ? turned : 0);
  /** The scale at which the pane's copy is whole in it; none before it is shown. */
  const fitOf = (pane: Pane): number | undefined => {
    if (!pane.shown || pane.scroller.clientWidth === 0) return undefined;
    const size = pane.shown.drawing.size(rotationOf(pane));
    return Math.min(
      (pane.scroller.clientWidth - MARGIN) / size.width,
      (pane.scroller.clientHeight - MARGIN) / size.height,
    );
  };
  /** Each copy at the zoom times its fit; two PDFs at the smaller of their fits, so at one scale. */
  const draw = () => {
    if (closed) return;
    const fits = new Map(panes.map((pane) => [pane, fitOf(pane)]));
    const pdfFits = panes.filter((pane) => pane.shown?.kind === "pdf").map((pane) => fits.get(pane) ?? Infinity);
    for (const pane of panes) {
      const fit = pane.shown?.kind === "pdf" ? Math.min(...pdfFits) : fits.get(pane);
      if (!pane.shown || fit === undefined || !Number.isFinite(fit)) continue;
      const scale = Math.max(fit, 0.01) * (ZOOMS[zoom] ?? 1);
      pane.shown.drawing.draw(scale, rotationOf(pane));
    }
    level.textContent = new Intl.NumberFormat(text.language(), { style: "percent" }).format(ZOOMS[zoom] ?? 1);
    zoomOut.disabled = zoom === 0;
    zoomIn.disabled = zoom === ZOOMS.length - 1;
    rotate.disabled = !upload.shown;
  };
  const zoomTo = (index: number) => {
    zoom = Math.min(Math.max(index, 0), ZOOMS.length - 1);
    draw();
  };
  const turn = () => {
    if (!upload.shown) return;
    turned = (turned + 90) % 360;
    draw();
  };

  let pending = 0;
  const resized = new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(draw);
  });

  container.replaceChildren(
    h(
      "div",
      { class: "viewer-toolbar", role: "group", "aria-label": t("viewer.tools") },
      tool("viewer.fit", "0", () => zoomTo(FIT)),
      zoomOut,
      level,
      zoomIn,
      rotate,
    ),
    h(
      "div",
      { class: panes.length === 1 ? "viewer single" : "viewer" },
      h("aside", { class: "viewer-side", "aria-label": t("viewer.side") }, keysSection(verification), lines),
      ...panes.map((pane) => pane.figure),
    ),
  );
  draw();

  const loaded = panes.map(async (pane) => {
    const missing = pane.copy === "upload" ? "item.copy.upload_missing" : "item.copy.issuer_missing";
    if (!verification.copies[pane.copy]) {
      pane.scroller.replaceChildren(h("p", { class: "missing" }, t(missing)));
      return;
    }
    pane.scroller.replaceChildren(h("p", { class: "muted" }, t("viewer.loading")));
    try {
      const shown = await showCopy(api, verification.verification_id, pane);
      if (closed) {
        if (shown.kind === "pdf") shown.drawing.close();
        return;
      }
      pane.shown = shown;
      resized.observe(pane.scroller, { box: "border-box" });
      draw();
    } catch (error) {
      if (closed) return;
      const failed =
        error instanceof ApiError
          ? problemText(error, "item.load_failed")
          : t("item.copy.failed", { copy: t(pane.title) });
      pane.scroller.replaceChildren(h("p", { class: "missing" }, failed));
    }
  });
  void Promise.all(loaded).then(async () => {
    const comparison = await compare(upload.shown, issuer.shown);
    if (!closed) showComparison(lines, comparison);
  });

  return {
    key(event) {
      switch (event.key) {
        case "+":
        case "=":
          zoomTo(zoom + 1);
          return true;
        case "-":
          zoomTo(zoom - 1);
          return true;
        case "0":
          zoomTo(FIT);
          return true;
        case "t":
          turn();
          return true;
        default:
          return false;
      }
    },
    close() {
      closed = true;
      resized.disconnect();
      for (const pane of panes) if (pane.shown?.kind === "pdf") pane.shown.drawing.close();
    },
  };
}
