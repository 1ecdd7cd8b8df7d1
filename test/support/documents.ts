/** Real documents for the pipeline: a PDF, a PNG and a JPEG that open, and ones that do not. */
import { createRequire } from "node:module";
import { crc32, createDeflate } from "node:zlib";
import jpeg from "jpeg-js";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { PNG } from "pngjs";

export async function pdfDocument(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawText("Ogrenci Belgesi (test document)", {
    x: 50,
    y: 780,
    font: await pdf.embedFont(StandardFonts.Helvetica),
  });
  return pdf.save({ useObjectStreams: false });
}

/** A PDF whose trailer names an encryption dictionary, as an encrypted PDF's does. */
export async function encryptedPdf(): Promise<Uint8Array> {
  const text = Buffer.from(await pdfDocument()).toString("latin1");
  return Buffer.from(text.replace("trailer\n<<", "trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 >>"), "latin1");
}

export function brokenPdf(size = 512): Uint8Array {
  const bytes = Buffer.alloc(size, 0x41);
  bytes.write("%PDF-1.7\n", 0, "latin1");
  return bytes;
}

export function pngImage(width = 40, height = 30): Uint8Array {
  const png = new PNG({ width, height });
  png.data.fill(200);
  return PNG.sync.write(png);
}

export function jpegImage(width = 40, height = 30): Uint8Array {
  const data = Buffer.alloc(width * height * 4, 180);
  return jpeg.encode({ data, width, height }, 80).data;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** `length` zero bytes, deflated (zlib) a megabyte at a time, so making a bomb costs little memory. */
export async function deflatedZeros(length: number, byte = 0): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on("end", resolve).on("error", reject));
  const block = Buffer.alloc(1024 * 1024, byte);
  let remaining = length;
  while (remaining > 0) {
    const part = block.subarray(0, Math.min(remaining, block.length));
    remaining -= part.length;
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(compressed);
}

/**
 * A decompression bomb: a small, valid PNG of black pixels whose decoded rows are large (the
 * default, 7000 x 7000 RGBA at 16 bits, is 381 KB and inflates to 392 MB). Deflated a
 * megabyte at a time, so making it costs little memory.
 */
export async function pngBomb(width = 7000, height = 7000, bitDepth: 8 | 16 = 16): Promise<Uint8Array> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = 6; // RGBA
  const compressed = await deflatedZeros(height * (1 + (width * 4 * bitDepth) / 8));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk("IHDR", header),
    pngChunk("IDAT", compressed),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Documents with a text layer and QR codes, for the document reader. The libraries load when a
// helper is first called, so the tests that only need the files above do not load them.

/** A QR code's modules, row by row: `dark(x, y)` for 0 <= x, y < size. */
export interface QrModules {
  size: number;
  dark(x: number, y: number): boolean;
}

let writerReady: Promise<typeof import("zxing-wasm/writer")> | undefined;

/** The QR code for `text`, made by zxing-cpp's writer (its binary read from the package, not fetched). */
export async function qrModules(text: string): Promise<QrModules> {
  writerReady ??= (async () => {
    const writer = await import("zxing-wasm/writer");
    const { readFileSync } = await import("node:fs");
    const wasm = readFileSync(createRequire(__filename).resolve("zxing-wasm/writer/zxing_writer.wasm"));
    writer.prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
    });
    return writer;
  })();
  const writer = await writerReady;
  const { symbol, error } = await writer.writeBarcode(text, { format: "QRCode", ecLevel: "M", withQuietZones: false });
  if (error || !symbol.data) throw new Error(`The QR code could not be made: ${error}`);
  const { data, width } = symbol;
  // The writer's symbol holds 0 for a dark module and 255 for a light one.
  return { size: width, dark: (x, y) => data[y * width + x] === 0 };
}

/** An RGBA raster, 4 bytes a pixel. */
export interface Raster {
  width: number;
  height: number;
  data: Buffer;
}

/** A raster of `width` x `height` filled by `shade(x, y)` (0 black to 255 white), grey. */
export function raster(width: number, height: number, shade: (x: number, y: number) => number): Raster {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = shade(x, y);
      const i = (y * width + x) * 4;
      data[i] = v;
      data[i + 1] = v;
      data[i + 2] = v;
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

/**
 * Paints `qr` onto `target`, centred at (cx, cy), `cell` pixels a module, turned by `angle`
 * radians, on a white quiet zone of 4 modules, as a printed code photographed at an angle is.
 */
export function paintQr(target: Raster, qr: QrModules, at: { cx: number; cy: number; cell: number; angle?: number }) {
  const { cx, cy, cell, angle = 0 } = at;
  const half = ((qr.size + 8) * cell) / 2;
  const reach = Math.ceil(half * Math.SQRT2);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  for (let y = Math.max(0, Math.floor(cy - reach)); y < Math.min(target.height, cy + reach); y++) {
    for (let x = Math.max(0, Math.floor(cx - reach)); x < Math.min(target.width, cx + reach); x++) {
      // The pixel in the code's own frame, quiet zone included.
      const u = cos * (x - cx) + sin * (y - cy) + half;
      const v = -sin * (x - cx) + cos * (y - cy) + half;
      if (u < 0 || v < 0 || u >= 2 * half || v >= 2 * half) continue;
      const mx = Math.floor(u / cell) - 4;
      const my = Math.floor(v / cell) - 4;
      const inside = mx >= 0 && my >= 0 && mx < qr.size && my < qr.size;
      const shade = inside && qr.dark(mx, my) ? 20 : 235;
      const i = (y * target.width + x) * 4;
      target.data[i] = shade;
      target.data[i + 1] = shade;
      target.data[i + 2] = shade;
    }
  }
}

/** A QR code alone: `cell` pixels a module and a quiet zone of 4 modules. */
export async function qrImage(text: string, cell = 4): Promise<Raster> {
  const qr = await qrModules(text);
  const side = (qr.size + 8) * cell;
  const image = raster(side, side, () => 255);
  paintQr(image, qr, { cx: side / 2, cy: side / 2, cell });
  return image;
}

export function encodePng(image: Raster, colorType: 0 | 2 | 6 = 2): Uint8Array {
  const png = new PNG({ width: image.width, height: image.height });
  image.data.copy(png.data);
  return PNG.sync.write(png, { colorType });
}

export function encodeJpeg(image: Raster, quality = 85): Uint8Array {
  return jpeg.encode({ data: image.data, width: image.width, height: image.height }, quality).data;
}

/**
 * A phone photo of a printed QR code: `width` x `height` of textured grey (a desk, a sheet of
 * paper, sensor noise) with the code turned by `angle`, or no code when `text` is undefined.
 */
export async function qrPhoto(opts: { width: number; height: number; text?: string; angle?: number; cell?: number }) {
  const { width, height, text, angle = 0.35, cell = 12 } = opts;
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const photo = raster(width, height, (x, y) => 120 + ((x * 3 + y * 2) % 90) + noise() * 30);
  if (text) paintQr(photo, await qrModules(text), { cx: width * 0.6, cy: height * 0.45, cell, angle });
  return photo;
}

/**
 * A run of text on a PDF page, in points from the bottom left as PDF places text. With
 * `follows`, `x` is counted from where the previous run ended: 0 makes the runs touch.
 */
export interface Run {
  text: string;
  x: number;
  y: number;
  size?: number;
  follows?: boolean;
}

/**
 * A PDF built as a certificate generator would: Turkish text in DejaVu Sans (embedded, so the
 * text layer maps back to Unicode), drawn run by run, and images. `afterRun` lets a test place
 * the next run exactly where the previous one ended.
 */
export async function textPdf(
  pages: {
    runs?: Run[];
    images?: {
      png?: Uint8Array;
      jpeg?: Uint8Array;
      x: number;
      y: number;
      width: number;
      height: number;
      rotate?: number;
    }[];
    masks?: { qr: QrModules; x: number; y: number; side: number }[];
  }[],
): Promise<Uint8Array> {
  const { PDFDocument, PDFName, degrees, pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } =
    await import("pdf-lib");
  const { default: fontkit } = await import("@pdf-lib/fontkit");
  const { readFileSync } = await import("node:fs");
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(
    readFileSync(createRequire(__filename).resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    {
      subset: true,
    },
  );
  for (const content of pages) {
    const page = pdf.addPage([595, 842]);
    let end = 0;
    for (const run of content.runs ?? []) {
      const size = run.size ?? 11;
      const x = run.follows ? end + run.x : run.x;
      page.drawText(run.text, { x, y: run.y, size, font });
      end = x + font.widthOfTextAtSize(run.text, size);
    }
    for (const image of content.images ?? []) {
      const embedded = image.png ? await pdf.embedPng(image.png) : await pdf.embedJpg(image.jpeg ?? new Uint8Array());
      page.drawImage(embedded, {
        x: image.x,
        y: image.y,
        width: image.width,
        height: image.height,
        rotate: degrees(image.rotate ?? 0),
      });
    }
    content.masks?.forEach((mask, i) => {
      // An image mask: 1 bit a pixel, a module a pixel, painted in the fill colour where the bit is 0.
      const side = mask.qr.size + 8;
      const rowBytes = Math.ceil(side / 8);
      const bits = new Uint8Array(rowBytes * side).fill(0xff);
      for (let y = 0; y < mask.qr.size; y++) {
        for (let x = 0; x < mask.qr.size; x++) {
          const px = x + 4;
          const at = (y + 4) * rowBytes + (px >> 3);
          if (mask.qr.dark(x, y)) bits[at] = (bits[at] ?? 0) & ~(0x80 >> (px & 7));
        }
      }
      const stream = pdf.context.flateStream(bits, {
        Type: "XObject",
        Subtype: "Image",
        Width: side,
        Height: side,
        ImageMask: true,
        BitsPerComponent: 1,
      });
      const name = `QrMask${i}`;
      page.node.setXObject(PDFName.of(name), pdf.context.register(stream));
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(mask.side, 0, 0, mask.side, mask.x, mask.y),
        drawObject(name),
        popGraphicsState(),
      );
    });
  }
  return pdf.save();
}

/** A PNG whose header says `width` x `height` (8-bit RGBA) but whose rows inflate to `inflated` bytes. */
export async function pngInflatingPast(inflated: number, width = 64, height = 64): Promise<Uint8Array> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", await deflatedZeros(inflated)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A PNG with a valid header and rows that are not zlib data. */
export function corruptPng(width = 40, height = 30): Uint8Array {
  const png = Buffer.from(pngImage(width, height));
  // The first IDAT's data starts after the signature, IHDR (25 bytes) and its own length and type.
  png.fill(0x5a, 8 + 25 + 8, png.length - 12 - 4);
  return png;
}

/** A small, valid JPEG whose frame header claims `width` x `height`. */
export function jpegClaiming(width: number, height: number): Uint8Array {
  const bytes = Buffer.from(jpegImage(16, 16));
  for (let at = 2; at + 9 < bytes.length; ) {
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xc0 || marker === 0xc2) {
      bytes.writeUInt16BE(height, at + 5);
      bytes.writeUInt16BE(width, at + 7);
      return bytes;
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error("no frame header");
}

/** A PDF whose page has no pages at all (pdf-lib always adds one, so the page tree is edited after). */
export async function noPagesPdf(): Promise<Uint8Array> {
  const { PDFDocument } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  pdf.addPage();
  const text = Buffer.from(await pdf.save({ useObjectStreams: false })).toString("latin1");
  // Same length, so the cross-reference offsets stay right.
  const edited = text.replace(/\/Kids \[ \d+ 0 R \]\n\/Count 1/, (tree) =>
    "/Kids [ ]\n/Count 0".padEnd(tree.length, " "),
  );
  if (edited === text) throw new Error("page tree not found");
  return Buffer.from(edited, "latin1");
}

/** Adds an image XObject to `page` from already encoded stream data, painted at (x, y), `side` points wide. */
async function paintRawImage(
  pdf: import("pdf-lib").PDFDocument,
  page: import("pdf-lib").PDFPage,
  name: string,
  data: Uint8Array,
  dict: Record<string, unknown>,
  at: { x: number; y: number; side: number },
) {
  const { PDFName, pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } = await import(
    "pdf-lib"
  );
  const stream = pdf.context.stream(data, { Type: "XObject", Subtype: "Image", ...dict } as never);
  page.node.setXObject(PDFName.of(name), pdf.context.register(stream));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(at.side, 0, 0, at.side, at.x, at.y),
    drawObject(name),
    popGraphicsState(),
  );
}

/**
 * A PDF painting `count` RGB images of `side` x `side` black pixels: each its own object, so
 * each is decoded (to side² x 4 bytes), and each a few kilobytes in the file.
 */
export async function imagesPdf(count: number, side: number): Promise<Uint8Array> {
  const { PDFDocument } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const black = await deflatedZeros(side * side * 3);
  const dict = { Width: side, Height: side, ColorSpace: "DeviceRGB", BitsPerComponent: 8, Filter: "FlateDecode" };
  for (let i = 0; i < count; i++)
    await paintRawImage(pdf, page, `Im${i}`, black, dict, { x: 10 + i, y: 10, side: 100 });
  return pdf.save();
}

/** A PDF whose one page's content inflates to `megabytes` MB of spaces: a few hundred bytes a megabyte. */
export async function contentBombPdf(megabytes: number): Promise<Uint8Array> {
  const { PDFDocument, PDFName } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const content = pdf.context.stream(await deflatedZeros(megabytes * 1024 * 1024, 0x20), { Filter: "FlateDecode" });
  page.node.set(PDFName.of("Contents"), pdf.context.register(content));
  return pdf.save();
}

/**
 * A PDF whose page draws the same short text `times` times, each a text object of its own: a
 * few kilobytes compressed, and work for any reader that builds the page (a denial of time).
 */
export async function denseTextPdf(times: number): Promise<Uint8Array> {
  const { PDFDocument, PDFName, StandardFonts } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawText("x", { font: await pdf.embedFont(StandardFonts.Helvetica), size: 10 });
  const fonts = page.node.Resources()?.lookup(PDFName.of("Font")) as import("pdf-lib").PDFDict;
  const font = fonts.keys()[0]?.asString();
  const content = pdf.context.flateStream(`BT ${font} 10 Tf 20 30 Td (Merhaba) Tj ET\n`.repeat(times));
  page.node.set(PDFName.of("Contents"), pdf.context.register(content));
  return pdf.save();
}

/**
 * A PDF of about `targetBytes` (10 MiB, the largest upload): a certificate page with its QR
 * code, then pages each holding a 3-megapixel photo of noise (noise keeps a JPEG large).
 */
export async function photoAlbumPdf(targetBytes: number, qrText: string): Promise<Uint8Array> {
  let seed = 11;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed / 0x7fffffff) * 255;
  };
  const photo = (height: number) => encodeJpeg(raster(2000, height, noise), 90);
  const certificate = {
    runs: [
      { text: "YÜKSEKÖĞRETİM KURULU BAŞKANLIĞI", x: 150, y: 780, size: 14 },
      { text: "Barkod No : TESTYOK-0001-AKTIF", x: 50, y: 700 },
    ],
    images: [{ png: encodePng(await qrImage(qrText, 4)), x: 420, y: 600, width: 120, height: 120 }],
  };
  const full = photo(1500);
  const photos: Uint8Array[] = [];
  // Photos until the next would not fit, then one cut to the size left (about 0.9 bytes a pixel).
  while ((photos.length + 1) * full.length < targetBytes - 200_000) photos.push(full);
  let last = Math.floor((targetBytes - 100_000 - photos.length * full.length) / (2000 * 0.9));
  for (;;) {
    const pages = [
      certificate,
      ...[...photos, photo(last)].map((jpeg, i) => ({
        runs: [{ text: `Ek ${i + 1}`, x: 50, y: 800 }],
        images: [{ jpeg, x: 50, y: 100, width: 500, height: 375 }],
      })),
    ];
    const pdf = await textPdf(pages);
    if (pdf.length <= targetBytes) return pdf;
    last = Math.floor(last * 0.97);
  }
}
