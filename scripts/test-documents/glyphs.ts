/**
 * Text drawn as the paper of a photographed certificate shows it: each glyph's outline, from the
 * same font files the PDFs embed, filled into a grey bitmap with 4 x 4 samples a pixel (non-zero
 * winding), so the published photos can be read and compared by eye with their PDFs.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create, type Font } from "@pdf-lib/fontkit";

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
  const coverage = new Map<number, number>();
  let pen = x;
  run.glyphs.forEach((glyph, index) => {
    const position = run.positions[index];
    const originX = pen + (position?.xOffset ?? 0) * scale;
    const originY = y - (position?.yOffset ?? 0) * scale;
    const outline = new Outline((gx, gy) => [originX + gx * scale, originY - gy * scale]);
    (glyph.path.toFunction() as (sink: Outline) => void)(outline);
    outline.closePath();
    fill(outline.polygons, bitmap, coverage);
    pen += (position?.xAdvance ?? glyph.advanceWidth) * scale;
  });
  for (const [at, share] of coverage) {
    const old = bitmap.pixels[at] ?? 255;
    bitmap.pixels[at] = Math.round(old - Math.min(share, 1) * (old - Math.min(old, value)));
  }
}

/** Adds each pixel's share inside `polygons` (non-zero winding, `SAMPLES` x `SAMPLES` points a pixel) to `coverage`. */
function fill(polygons: Point[][], bitmap: Bitmap, coverage: Map<number, number>): void {
  const edges: [Point, Point][] = polygons.flatMap((points) =>
    points.map((from, n): [Point, Point] => [from, points[(n + 1) % points.length] ?? from]),
  );
  if (edges.length === 0) return;
  const ys = edges.flatMap(([[, y0], [, y1]]) => [y0, y1]);
  const top = Math.max(0, Math.floor(Math.min(...ys) * SAMPLES));
  const bottom = Math.min(bitmap.height * SAMPLES, Math.ceil(Math.max(...ys) * SAMPLES));
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
    for (const [n, crossing] of crossings.entries()) {
      winding += crossing.winding;
      const next = crossings[n + 1];
      if (winding === 0 || !next) continue;
      const first = Math.max(0, Math.ceil(crossing.x * SAMPLES - 0.5));
      const last = Math.min(bitmap.width * SAMPLES - 1, Math.ceil(next.x * SAMPLES - 0.5) - 1);
      const pixelRow = Math.floor(sy) * bitmap.width;
      for (let column = first; column <= last; column++) {
        const at = pixelRow + Math.floor(column / SAMPLES);
        coverage.set(at, (coverage.get(at) ?? 0) + share);
      }
    }
  }
}
