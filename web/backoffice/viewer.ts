/**
 * The document viewer of an item: the upload and the issuer's copy side by side (stacked on a
 * phone), with the keys the checks read and the lines that differ in a panel beside them. One
 * toolbar for both: fit (a PDF's page across its pane's width, its text readable and the page
 * scrolled down; a photo whole in its pane; the start), zoom in and out from there keeping what
 * is at each pane's centre in place (two PDFs always at the same scale), and the upload turned
 * a quarter at a time. PDFs are
 * drawn by pdf.js from their bytes; photos are shown as images. Each copy is asked for once per
 * visit: each view is audited.
 */
import { h } from "../common/dom.ts";
import { ApiError } from "../common/problem.ts";
import type { BackofficeApi } from "./api.ts";
import { openPdf, type PdfCopy } from "./pdf.ts";
import { type Drawing, showPhoto } from "./photo.ts";
import { problemText, t, text } from "./text.ts";
import { type LineDifference, lineDifferences } from "./text-diff.ts";
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
    const reveal = {
      upload: (difference: LineDifference) => upload.drawing.reveal(difference),
      issuer: (difference: LineDifference) => issuer.drawing.reveal(difference),
    };
    return { state: "compared", ...differences, reveal };
  } catch {
    return { state: "failed" };
  }
}

/** The viewer's controls and what they set: the zoom, the upload's turn, the panes, and whether it is closed. */
interface ViewerState {
  upload: Pane;
  issuer: Pane;
  panes: Pane[];
  zoom: number;
  turned: number;
  closed: boolean;
  level: HTMLOutputElement;
  zoomOut: HTMLButtonElement;
  zoomIn: HTMLButtonElement;
  rotate: HTMLButtonElement;
}

/** How far the pane's copy is turned: only the upload turns. */
const rotationOf = (state: ViewerState, pane: Pane) => (pane === state.upload ? state.turned : 0);

/** The scale at which the pane's copy fits it: a PDF's page across its width, a photo whole; none before it is shown. */
function fitOf(state: ViewerState, pane: Pane): number | undefined {
  if (!pane.shown || pane.scroller.clientWidth === 0) return undefined;
  const size = pane.shown.drawing.size(rotationOf(state, pane));
  const across = (pane.scroller.clientWidth - MARGIN) / size.width;
  return pane.shown.kind === "pdf" ? across : Math.min(across, (pane.scroller.clientHeight - MARGIN) / size.height);
}

/** Where each pane's centre is, as a share of what it scrolls over. */
function centres(state: ViewerState): Map<Pane, { x: number; y: number }> {
  return new Map(
    state.panes.map((pane) => {
      const { scroller } = pane;
      const x = (scroller.scrollLeft + scroller.clientWidth / 2) / Math.max(scroller.scrollWidth, 1);
      const y = (scroller.scrollTop + scroller.clientHeight / 2) / Math.max(scroller.scrollHeight, 1);
      return [pane, { x, y }];
    }),
  );
}

/** Each copy at the zoom times its fit; two PDFs at the smaller of their fits, so at one scale. */
function draw(state: ViewerState): void {
  if (state.closed) return;
  const { panes, zoom } = state;
  const fits = new Map(panes.map((pane) => [pane, fitOf(state, pane)]));
  const pdfFits = panes.filter((pane) => pane.shown?.kind === "pdf").map((pane) => fits.get(pane) ?? Infinity);
  for (const pane of panes) {
    const fit = pane.shown?.kind === "pdf" ? Math.min(...pdfFits) : fits.get(pane);
    if (!pane.shown || fit === undefined || !Number.isFinite(fit)) continue;
    const scale = Math.max(fit, 0.01) * (ZOOMS[zoom] ?? 1);
    pane.shown.drawing.draw(scale, rotationOf(state, pane));
  }
  state.level.textContent = new Intl.NumberFormat(text.language(), { style: "percent" }).format(ZOOMS[zoom] ?? 1);
  state.zoomOut.disabled = zoom === 0;
  state.zoomIn.disabled = zoom === ZOOMS.length - 1;
  state.rotate.disabled = !state.upload.shown;
}

/** Zooms to `index`, each pane scrolled so what was at its centre stays there. */
function zoomTo(state: ViewerState, index: number): void {
  const before = centres(state);
  state.zoom = Math.min(Math.max(index, 0), ZOOMS.length - 1);
  draw(state);
  for (const [{ scroller }, centre] of before) {
    scroller.scrollLeft = centre.x * scroller.scrollWidth - scroller.clientWidth / 2;
    scroller.scrollTop = centre.y * scroller.scrollHeight - scroller.clientHeight / 2;
  }
}

/** Turns the upload a quarter, once it is shown. */
function turn(state: ViewerState): void {
  if (!state.upload.shown) return;
  state.turned = (state.turned + 90) % 360;
  draw(state);
}

/** The viewer's state at the fit, its toolbar's controls drawn from it; a verification without an upload shows the issuer's copy alone. */
function viewerState(verification: StaffVerification): ViewerState {
  const upload = paneOf("upload", "item.copy.upload");
  const issuer = paneOf("issuer", "item.copy.issuer");
  const state: ViewerState = {
    upload,
    issuer,
    panes: verification.file_size_bytes === null ? [issuer] : [upload, issuer],
    zoom: FIT,
    turned: 0,
    closed: false,
    level: h("output", { "aria-label": t("viewer.zoom"), "aria-live": "polite" }),
    zoomOut: tool("viewer.zoom_out", "-", () => zoomTo(state, state.zoom - 1)),
    zoomIn: tool("viewer.zoom_in", "+", () => zoomTo(state, state.zoom + 1)),
    rotate: tool("viewer.rotate", "t", () => turn(state)),
  };
  return state;
}

/** The toolbar, the side panel and the panes, into `container`. */
function layOut(container: HTMLElement, state: ViewerState, side: HTMLElement[]): void {
  container.replaceChildren(
    h(
      "div",
      { class: "viewer-toolbar", role: "group", "aria-label": t("viewer.tools") },
      tool("viewer.fit", "0", () => zoomTo(state, FIT)),
      state.zoomOut,
      state.level,
      state.zoomIn,
      state.rotate,
    ),
    h(
      "div",
      { class: state.panes.length === 1 ? "viewer single" : "viewer" },
      h("aside", { class: "viewer-side", "aria-label": t("viewer.side") }, ...side),
      ...state.panes.map((pane) => pane.figure),
    ),
  );
}

/** Reads the pane's copy and shows it, or says why it cannot; `shown` runs once it is drawn. */
async function loadPane(
  state: ViewerState,
  api: BackofficeApi,
  verification: StaffVerification,
  pane: Pane,
  shown: () => void,
): Promise<void> {
  const missing = pane.copy === "upload" ? "item.copy.upload_missing" : "item.copy.issuer_missing";
  if (!verification.copies[pane.copy]) {
    pane.scroller.replaceChildren(h("p", { class: "missing" }, t(missing)));
    return;
  }
  pane.scroller.replaceChildren(h("p", { class: "muted" }, t("viewer.loading")));
  try {
    const copy = await showCopy(api, verification.verification_id, pane);
    if (state.closed) {
      if (copy.kind === "pdf") copy.drawing.close();
      return;
    }
    pane.shown = copy;
    shown();
  } catch (error) {
    if (state.closed) return;
    const failed =
      error instanceof ApiError
        ? problemText(error, "item.load_failed")
        : t("item.copy.failed", { copy: t(pane.title) });
    pane.scroller.replaceChildren(h("p", { class: "missing" }, failed));
  }
}

/** The viewer's shortcuts: + and - zoom, 0 fits, t turns the upload; true when it took the key. */
function viewerKey(state: ViewerState, key: string): boolean {
  switch (key) {
    case "+":
    case "=":
      zoomTo(state, state.zoom + 1);
      return true;
    case "-":
      zoomTo(state, state.zoom - 1);
      return true;
    case "0":
      zoomTo(state, FIT);
      return true;
    case "t":
      turn(state);
      return true;
    default:
      return false;
  }
}

/**
 * Draws the viewer of `verification` into `container` and reads its copies; `beside` goes in the
 * side column under the keys (the item's own parts about them, as asking e-Devlet again).
 */
export function showViewer(
  container: HTMLElement,
  api: BackofficeApi,
  verification: StaffVerification,
  beside: HTMLElement[] = [],
): Viewer {
  const state = viewerState(verification);
  const lines = linesSection();
  showComparison(lines, { state: "comparing" });
  let pending = 0;
  const resized = new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => draw(state));
  });
  layOut(container, state, [keysSection(verification), ...beside, lines]);
  draw(state);

  const loaded = state.panes.map((pane) =>
    loadPane(state, api, verification, pane, () => {
      resized.observe(pane.scroller, { box: "border-box" });
      draw(state);
    }),
  );
  void Promise.all(loaded).then(async () => {
    const comparison = await compare(state.upload.shown, state.issuer.shown);
    if (!state.closed) showComparison(lines, comparison);
  });

  return {
    key: (event) => viewerKey(state, event.key),
    close() {
      state.closed = true;
      resized.disconnect();
      for (const pane of state.panes) if (pane.shown?.kind === "pdf") pane.shown.drawing.close();
    },
  };
}
