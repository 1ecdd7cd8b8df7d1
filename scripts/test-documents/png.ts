/**
 * A small PNG writer whose output is the same on every machine. node:zlib (and so pngjs) is
 * only as stable as the zlib build Node bundles, which has changed between Node releases;
 * pdf-lib compresses with pako, plain JavaScript at a pinned version, so committed images
 * stay byte-identical to a fresh run wherever the generator runs.
 */
import { crc32 } from "node:zlib";
import { PDFContext } from "pdf-lib";

export interface RawImage {
  width: number;
  height: number;
  /** 1: grey; 3: RGB. 8 bits a sample, rows top to bottom, no padding. */
  channels: 1 | 3;
  data: Uint8Array;
}

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  if (pa <= pb && pa <= pc) return left;
  return pb <= pc ? up : upLeft;
}

function predict(filter: number, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4:
      return paeth(left, up, upLeft);
    default:
      return 0;
  }
}

/**
 * Each row gets the filter whose output has the smallest sum of absolute values (the usual
 * heuristic): flat paper and repeated rows then deflate to almost nothing.
 */
function filterRows(image: RawImage): Uint8Array {
  const stride = image.width * image.channels;
  const bpp = image.channels;
  const out = new Uint8Array(image.height * (stride + 1));
  const candidate = new Uint8Array(stride);
  const best = new Uint8Array(stride);
  for (let y = 0; y < image.height; y++) {
    const row = y * stride;
    let bestFilter = 0;
    let bestScore = Number.POSITIVE_INFINITY;
    for (let filter = 0; filter <= 4; filter++) {
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const value = image.data[row + i] ?? 0;
        const left = i >= bpp ? (image.data[row + i - bpp] ?? 0) : 0;
        const up = y > 0 ? (image.data[row - stride + i] ?? 0) : 0;
        const upLeft = y > 0 && i >= bpp ? (image.data[row - stride + i - bpp] ?? 0) : 0;
        const predicted = predict(filter, left, up, upLeft);
        const residual = (value - predicted) & 0xff;
        candidate[i] = residual;
        score += residual < 128 ? residual : 256 - residual;
      }
      if (score < bestScore) {
        bestScore = score;
        bestFilter = filter;
        best.set(candidate);
      }
    }
    out[y * (stride + 1)] = bestFilter;
    out.set(best, y * (stride + 1) + 1);
  }
  return out;
}

export function encodePng(image: RawImage): Uint8Array {
  if (image.data.length !== image.width * image.height * image.channels) throw new Error("Pixel data size mismatch");
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8;
  header[9] = image.channels === 1 ? 0 : 2;
  // Bytes 10-12: deflate, adaptive filtering, no interlace (all zero).
  const compressed = PDFContext.create().flateStream(filterRows(image)).getContents();
  return new Uint8Array(
    Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", compressed), chunk("IEND", new Uint8Array(0))]),
  );
}
