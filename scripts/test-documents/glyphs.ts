/**
 * Text drawn as the paper of a photographed certificate shows it: each glyph's outline, from the
 * same font files the PDFs embed, filled into a grey bitmap with 4 x 4 samples a pixel (non-zero
 * winding), so the published photos can be read and compared by eye with their PDFs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create, type Font, type Glyph } from "@pdf-lib/fontkit";

const resolve = createRequire(__filename).resolve;

/** The faces the certificates print with, as outlines. */
export type Face = "regular" | "bold";

const FILES: Record<Face, string> = { regular: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf" };
const faces = new Map<Face, Font>();

function faceOf(face: Face): Font {
  let font = faces.get(face);
  if (!font) {
    font = create(readFileSync(resolve(`dejavu-fonts-ttf/ttf/${FILES[face]}`)));
    faces.set(face, font);
  }
  return font;
}

/** A grey bitmap, one byte a pixel (255 white), `width` pixels a row. */
export interface Bitmap {
  width: number;
  height: number;
  pixels: Uint8Array;
}

type Point = [number, number];

/** What a glyph's path function draws onto: its outline as closed polygons, curves flattened. */
class Outline {
  readonly polygons: Point[][] = [];
  private current: Point[] = [];

  constructor(private readonly place: (x: number, y: number) => Point) {}

  moveTo(x: number, y: number): void {
    this.closePath();
    this.current = [this.place(x, y)];
  }

  lineTo(x: number, y: number): void {
    this.current.push(this.place(x, y));
  }

  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void {
    const [x0, y0] = this.last();
    const [px, py] = this.place(cx, cy);
    const [ex, ey] = this.place(x, y);
    for (let step = 1; step <= CURVE_STEPS; step++) {
      const t = step / CURVE_STEPS;
      const u = 1 - t;
      this.current.push([u * u * x0 + 2 * u * t * px + t * t * ex, u * u * y0 + 2 * u * t * py + t * t * ey]);
    }
  }

  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void {
    const [x0, y0] = this.last();
    const [ax, ay] = this.place(c1x, c1y);
    const [bx, by] = this.place(c2x, c2y);
    const [ex, ey] = this.place(x, y);
    for (let step = 1; step <= CURVE_STEPS; step++) {
      const t = step / CURVE_STEPS;
      const u = 1 - t;
      const at = (p0: number, p1: number, p2: number, p3: number) =>
        u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
      this.current.push([at(x0, ax, bx, ex), at(y0, ay, by, ey)]);
    }
  }

  closePath(): void {
    if (this.current.length > 2) this.polygons.push(this.current);
    this.current = [];
  }

  private last(): Point {
    return this.current.at(-1) ?? [0, 0];
  }
}

const outlines = new Map<string, Point[][]>();

/** A glyph's outline in the font's units, made once (a path compiles to a function each time it is asked). */
function outlineOf(face: Face, glyph: Glyph): Point[][] {
  const key = `${face}:${glyph.id}`;
  let polygons = outlines.get(key);
  if (!polygons) {
    const outline = new Outline((x, y) => [x, y]);
    (glyph.path.toFunction() as (sink: Outline) => void)(outline);
    outline.closePath();
    polygons = outline.polygons;
    outlines.set(key, polygons);
  }
  return polygons;
}

/** Segments a curve is drawn with: enough for glyphs some 20 pixels tall. */
const CURVE_STEPS = 6;
const SAMPLES = 4;

/**
 * Draws `text` in `face` at `size` pixels (the em), its baseline starting at (`x`, `y`) in
 * pixels from the top left, in grey `value` (0 black) over what the bitmap holds.
 */
export function drawText(bitmap: Bitmap, text: string, face: Face, size: number, x: number, y: number, value: number) {
  const font = faceOf(face);
  const scale = size / font.unitsPerEm;
  const run = font.layout(text);
  // Each glyph's ink, placed at its origin (to a quarter pixel, so a glyph drawn again is drawn once).
  const placed: { x: number; y: number; mask: Coverage }[] = [];
  let pen = x;
  run.glyphs.forEach((glyph, index) => {
    const position = run.positions[index];
    const originX = Math.round((pen + (position?.xOffset ?? 0) * scale) * SAMPLES) / SAMPLES;
    const originY = Math.round((y - (position?.yOffset ?? 0) * scale) * SAMPLES) / SAMPLES;
    const [left, top] = [Math.floor(originX), Math.floor(originY)];
    placed.push({ x: left, y: top, mask: maskOf(face, glyph, scale, originX - left, originY - top) });
    pen += (position?.xAdvance ?? glyph.advanceWidth) * scale;
  });
  for (const { x: left, y: top, mask } of placed) {
    const { area, shares } = mask;
    const columns = area.right - area.left;
    shares.forEach((share, n) => {
      const px = left + area.left + (n % columns);
      const py = top + area.top + Math.floor(n / columns);
      if (share === 0 || px < 0 || py < 0 || px >= bitmap.width || py >= bitmap.height) return;
      const at = py * bitmap.width + px;
      const old = bitmap.pixels[at] ?? 255;
      bitmap.pixels[at] = Math.round(old - Math.min(share, 1) * (old - Math.min(old, value)));
    });
  }
}

const masks = new Map<string, Coverage>();

/** A glyph's ink at `scale` with its origin at (`dx`, `dy`) within a pixel, in pixels about that pixel; made once. */
function maskOf(face: Face, glyph: Glyph, scale: number, dx: number, dy: number): Coverage {
  const key = `${face}:${glyph.id}:${scale}:${dx}:${dy}`;
  let mask = masks.get(key);
  if (!mask) {
    const polygons = outlineOf(face, glyph).map((points) =>
      points.map(([gx, gy]): Point => [dx + gx * scale, dy - gy * scale]),
    );
    const xs = polygons.flat().map(([px]) => px);
    const ys = polygons.flat().map(([, py]) => py);
    const area =
      xs.length === 0
        ? { left: 0, top: 0, right: 0, bottom: 0 }
        : {
            left: Math.floor(Math.min(...xs)),
            top: Math.floor(Math.min(...ys)),
            right: Math.ceil(Math.max(...xs)) + 1,
            bottom: Math.ceil(Math.max(...ys)) + 1,
          };
    mask = { area, shares: new Float32Array((area.right - area.left) * (area.bottom - area.top)) };
    fill(polygons, mask);
    masks.set(key, mask);
  }
  return mask;
}

/** Where a text's coverage is kept: its area of the bitmap, and each pixel's share of ink in it. */
interface Coverage {
  area: { left: number; top: number; right: number; bottom: number };
  shares: Float32Array;
}

/** Adds each pixel's share inside `polygons` (non-zero winding, `SAMPLES` x `SAMPLES` points a pixel) to `coverage`. */
function fill(polygons: Point[][], { area, shares }: Coverage): void {
  const edges: [Point, Point][] = polygons.flatMap((points) =>
    points.map((from, n): [Point, Point] => [from, points[(n + 1) % points.length] ?? from]),
  );
  if (edges.length === 0) return;
  const ys = edges.flatMap(([[, y0], [, y1]]) => [y0, y1]);
  const top = Math.max(area.top * SAMPLES, Math.floor(Math.min(...ys) * SAMPLES));
  const bottom = Math.min(area.bottom * SAMPLES, Math.ceil(Math.max(...ys) * SAMPLES));
  const columns = area.right - area.left;
  const share = 1 / (SAMPLES * SAMPLES);
  for (let row = top; row < bottom; row++) {
    const sy = (row + 0.5) / SAMPLES;
    const crossings: { x: number; winding: number }[] = [];
    for (const [[x0, y0], [x1, y1]] of edges) {
      if (y0 === y1 || sy < Math.min(y0, y1) || sy >= Math.max(y0, y1)) continue;
      crossings.push({ x: x0 + ((sy - y0) * (x1 - x0)) / (y1 - y0), winding: y1 > y0 ? 1 : -1 });
    }
    crossings.sort((a, b) => a.x - b.x);
    let winding = 0;
    const pixelRow = (Math.floor(sy) - area.top) * columns - area.left;
    for (const [n, crossing] of crossings.entries()) {
      winding += crossing.winding;
      const next = crossings[n + 1];
      if (winding === 0 || !next) continue;
      const first = Math.max(area.left * SAMPLES, Math.ceil(crossing.x * SAMPLES - 0.5));
      const last = Math.min(area.right * SAMPLES - 1, Math.ceil(next.x * SAMPLES - 0.5) - 1);
      for (let column = first; column <= last; column++) {
        const at = pixelRow + Math.floor(column / SAMPLES);
        shares[at] = (shares[at] ?? 0) + share;
      }
    }
  }
}
