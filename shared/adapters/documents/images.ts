/**
 * A photo's size, read from its header: a decompression bomb is a few hundred kilobytes that
 * claim gigabytes, so what decoding would take is judged before anything is decoded.
 */
import { MiB, PHOTO_DECODE_BUDGET_BYTES, Unreadable } from "./budget.ts";

export interface ImageHeader {
  width: number;
  height: number;
  /** Samples per pixel as stored: 1 for greyscale or a palette index, 3 for RGB, 4 for RGBA or CMYK. */
  channels: number;
  /** Bits per sample. */
  bitDepth: number;
  /** A PNG of palette indexes, which the decoder expands to RGBA. */
  palette: boolean;
  /** A progressive JPEG keeps every coefficient of the image until its last scan. */
  progressive: boolean;
}

/** Samples per pixel of each PNG colour type. */
const PNG_CHANNELS: Partial<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const PNG_BIT_DEPTHS = new Set([1, 2, 4, 8, 16]);

/** The IHDR chunk, which the PNG format puts first. */
export function pngHeader(bytes: Uint8Array): ImageHeader {
  // The 8-byte signature, then IHDR's length and type, then its 13 bytes.
  if (bytes.length < 33) throw new Unreadable("png_truncated");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (type !== "IHDR") throw new Unreadable("png_no_header");
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const bitDepth = view.getUint8(24);
  const colourType = view.getUint8(25);
  const channels = PNG_CHANNELS[colourType];
  if (!channels || !PNG_BIT_DEPTHS.has(bitDepth) || width === 0 || height === 0) {
    throw new Unreadable("png_header_invalid");
  }
  return { width, height, channels, bitDepth, palette: colourType === 3, progressive: false };
}

/** Start-of-frame markers: baseline, extended, progressive and lossless, Huffman or arithmetic. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const PROGRESSIVE_MARKERS = new Set([0xc2, 0xc6, 0xca, 0xce]);
/** Markers with no length after them: TEM, RST0 to RST7, SOI. */
const STANDALONE = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

/** The frame header (SOFn), found by walking the segments that precede it. */
export function jpegHeader(bytes: Uint8Array): ImageHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2; // after SOI
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new Unreadable("jpeg_invalid");
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // a fill byte
      continue;
    }
    if (STANDALONE(marker)) {
      at += 2;
      continue;
    }
    // SOS starts the compressed data and EOI ends the image: a frame header must come before.
    if (marker === 0xda || marker === 0xd9) break;
    const length = view.getUint16(at + 2);
    if (SOF_MARKERS.has(marker)) {
      if (length < 8 || at + 10 > bytes.length) break;
      const bitDepth = view.getUint8(at + 4);
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      const channels = view.getUint8(at + 9);
      // A height of 0 is declared later (DNL), which the decoder does not support.
      if (width === 0 || height === 0 || channels === 0) throw new Unreadable("jpeg_frame_invalid");
      return { width, height, channels, bitDepth, palette: false, progressive: PROGRESSIVE_MARKERS.has(marker) };
    }
    at += 2 + length;
  }
  throw new Unreadable("jpeg_no_frame");
}

/**
 * The bytes the decoder (stb_image inside zxing-cpp, asked for greyscale) holds at its peak,
 * plus zxing's own copy of the pixels, estimated on the generous side. Checked against the QR
 * decoder's WebAssembly memory after decoding:
 * - PNG: the file, its compressed rows gathered in a buffer that may have doubled (2 x the
 *   file), the inflated rows (a filter byte each), the unfiltered image at 8 or 16 bits per
 *   sample (a palette expands to 4 samples), the greyscale copy (at 16 bits first, for a 16-bit
 *   PNG), the 8-bit one and zxing's working copy. A 12-megapixel RGBA PNG of 47 KB: estimated
 *   126 MiB, measured 96 MiB; a 12-megapixel RGB PNG of 23 MB: estimated 177 MiB, measured 121.
 * - JPEG: the file, every component at full size (padded to 16-pixel blocks), 2 bytes more per
 *   sample for a progressive JPEG's coefficients, the greyscale output and the working copy.
 *   A 12-megapixel baseline JPEG of 4.6 MB: estimated 62 MiB, measured 55 MiB.
 */
export function decodeCost(fileType: "png" | "jpeg", header: ImageHeader, fileBytes: number): number {
  const { width, height, channels, bitDepth } = header;
  const pixels = width * height;
  if (fileType === "png") {
    const inflated = height * (1 + Math.ceil((width * channels * bitDepth) / 8));
    const wide = bitDepth === 16 ? 2 : 1;
    const unfiltered = pixels * (header.palette ? 4 : channels) * wide;
    return 3 * fileBytes + inflated + unfiltered + pixels * wide + 2 * pixels;
  }
  const padded = (Math.ceil(width / 16) * 16 + 16) * (Math.ceil(height / 16) * 16 + 16);
  const perSample = header.progressive ? 3 : 1;
  return fileBytes + channels * padded * perSample + 2 * pixels;
}

/** The photo's header, or why it must not be decoded. */
export function photoHeader(fileType: "png" | "jpeg", bytes: Uint8Array): ImageHeader {
  const header = fileType === "png" ? pngHeader(bytes) : jpegHeader(bytes);
  const cost = decodeCost(fileType, header, bytes.length);
  if (cost > PHOTO_DECODE_BUDGET_BYTES) {
    throw new Unreadable("image_too_large", {
      width: header.width,
      height: header.height,
      mib: PHOTO_DECODE_BUDGET_BYTES / MiB,
    });
  }
  return header;
}
