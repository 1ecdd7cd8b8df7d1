/** Real documents for the pipeline: a PDF, a PNG and a JPEG that open, and ones that do not. */
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
