/**
 * pdf.js expects the browser's DOMMatrix: it builds one when it loads, and its parser uses one
 * for a Type 3 font whose glyphs are images. In Node it borrows DOMMatrix from @napi-rs/canvas,
 * a native package the functions do not ship (and without which pdf.js fails to load). This is
 * the 2D part of DOMMatrix that pdf.js calls, installed only where there is no DOMMatrix.
 */

/** A 2D affine matrix [a b c d e f]: x' = a x + c y + e, y' = b x + d y + f. */
export class DomMatrix2d {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;

  constructor(init?: ArrayLike<number>) {
    if (init && init.length === 6) this.#set(Array.from(init));
    else if (init && init.length !== 0) throw new TypeError("Only 2D matrices of 6 values are supported");
  }

  get is2D(): boolean {
    return true;
  }

  get isIdentity(): boolean {
    return this.a === 1 && this.b === 0 && this.c === 0 && this.d === 1 && this.e === 0 && this.f === 0;
  }

  #set(m: readonly number[]): this {
    [this.a, this.b, this.c, this.d, this.e, this.f] = m as [number, number, number, number, number, number];
    return this;
  }

  /** this x other. */
  multiplySelf(other: DomMatrix2d): this {
    const { a, b, c, d, e, f } = this;
    return this.#set([
      a * other.a + c * other.b,
      b * other.a + d * other.b,
      a * other.c + c * other.d,
      b * other.c + d * other.d,
      a * other.e + c * other.f + e,
      b * other.e + d * other.f + f,
    ]);
  }

  /** other x this. */
  preMultiplySelf(other: DomMatrix2d): this {
    const copy = new DomMatrix2d([this.a, this.b, this.c, this.d, this.e, this.f]);
    this.#set([other.a, other.b, other.c, other.d, other.e, other.f]);
    return this.multiplySelf(copy);
  }

  translateSelf(tx = 0, ty = 0): this {
    return this.multiplySelf(new DomMatrix2d([1, 0, 0, 1, tx, ty]));
  }

  scaleSelf(sx = 1, sy = sx): this {
    return this.multiplySelf(new DomMatrix2d([sx, 0, 0, sy, 0, 0]));
  }

  invertSelf(): this {
    const { a, b, c, d, e, f } = this;
    const det = a * d - b * c;
    if (det === 0) return this.#set([Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    return this.#set([d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det]);
  }

  #copy(): DomMatrix2d {
    return new DomMatrix2d([this.a, this.b, this.c, this.d, this.e, this.f]);
  }

  multiply(other: DomMatrix2d): DomMatrix2d {
    return this.#copy().multiplySelf(other);
  }

  translate(tx = 0, ty = 0): DomMatrix2d {
    return this.#copy().translateSelf(tx, ty);
  }

  scale(sx = 1, sy = sx): DomMatrix2d {
    return this.#copy().scaleSelf(sx, sy);
  }

  inverse(): DomMatrix2d {
    return this.#copy().invertSelf();
  }
}

/** Installs the stand-in as `globalThis.DOMMatrix` when the runtime has none. */
export function ensureDomMatrix(): void {
  const scope = globalThis as { DOMMatrix?: unknown };
  scope.DOMMatrix ??= DomMatrix2d;
}
