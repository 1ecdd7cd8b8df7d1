/** Real documents for the pipeline: a PDF, a PNG and a JPEG that open, and ones that do not. */
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
  let remaining = height * (1 + (width * 4 * bitDepth) / 8);
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on("end", resolve).on("error", reject));
  const zeros = Buffer.alloc(1024 * 1024);
  while (remaining > 0) {
    const part = zeros.subarray(0, Math.min(remaining, zeros.length));
    remaining -= part.length;
    if (!deflate.write(part)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk("IHDR", header),
    pngChunk("IDAT", Buffer.concat(compressed)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
