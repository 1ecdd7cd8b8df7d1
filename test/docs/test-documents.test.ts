/**
 * The published test documents (docs/test-documents/) against their generator and the layout
 * model of verification-engine.md: a fresh run gives the committed bytes, every PDF's text layer
 * reads back as the Turkish `label : value` lines it was drawn with, every QR code decodes to
 * the payload its spec asks for (e-Devlet's app payload unless it asks for another), every
 * identity number is a valid one, and the issuer folder holds exactly what the catalogue says.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import jpeg from "jpeg-js";
import { decodePDFRawStream, PDFDocument, PDFName, type PDFNumber, PDFRawStream } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { issueDateOf } from "#shared/domain/document-layouts";
import { DOCUMENT_TYPE_CODES } from "#shared/domain/document-types";
import { SANDBOX_PREFIXES } from "#shared/domain/sandbox";
import { CATALOGUE, type CatalogueEntry } from "../../scripts/test-documents/catalogue.ts";
import { type CertificateSpec, printedLines, qrText } from "../../scripts/test-documents/certificate.ts";
import { filesUnder, issuerPath, writeTestDocuments } from "../../scripts/test-documents/publish.ts";

const root = path.resolve(__dirname, "../..");
const published = path.join(root, "docs/test-documents");
const TURKISH_LETTERS = [..."İıŞşĞğÜüÖöÇç"];

const read = (file: string) => new Uint8Array(readFileSync(path.join(published, file)));

/** The official T.C. identity number rule, written out here rather than taken from the generator. */
function validIdentityNumber(value: string): boolean {
  if (!/^[1-9][0-9]{10}$/.test(value)) return false;
  const d = (position: number) => Number(value[position - 1]);
  const odd = d(1) + d(3) + d(5) + d(7) + d(9);
  const even = d(2) + d(4) + d(6) + d(8);
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  let sum = 0;
  for (let position = 1; position <= 10; position++) sum += d(position);
  return d(10) === tenth && d(11) === sum % 10;
}

/**
 * The keys a decoded QR code carries, read here by the published grammar rather than by the
 * service's reader: e-Devlet's app payload (`barkodlubelgedogrulama://barkod: <barcode>;tckn:<T.C. number>`,
 * the scheme perhaps missing, any case, further items after the pairs), the verification link,
 * or the bare barcode.
 */
function payloadKeys(kind: string, text: string): { barcode?: string; identityNumber?: string } {
  if (kind === "bare") return { barcode: text };
  if (kind === "link") {
    const link = new URL(text);
    expect(`${link.origin}${link.pathname}`).toBe("https://www.turkiye.gov.tr/belge-dogrulama");
    const barcode = ["barkod", "belgeNo", "barcode"].map((name) => link.searchParams.get(name)).find(Boolean);
    return { barcode: barcode ?? undefined, identityNumber: link.searchParams.get("tckn") ?? undefined };
  }
  const pairs = /^(?:barkodlubelgedogrulama:\/\/)?barkod: ?([A-Z0-9-]+);tckn:([0-9]{11})(?:;.*)?$/i.exec(text);
  expect(pairs, text).not.toBeNull();
  return { barcode: pairs?.[1], identityNumber: pairs?.[2] };
}

type PdfJsError = Error & { name: string };

/** The page's text, one string per printed line, top to bottom, whitespace collapsed. */
async function textLines(bytes: Uint8Array, password?: string): Promise<string[]> {
  // pdf.js may take over the buffer it is given; a copy keeps the caller's bytes intact.
  const pdf = await getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    useSystemFonts: false,
    ...(password ? { password } : {}),
  }).promise;
  try {
    const rows = new Map<number, { x: number; end: number; text: string }[]>();
    for (let number = 1; number <= pdf.numPages; number++) {
      const content = await (await pdf.getPage(number)).getTextContent();
      for (const item of content.items) {
        if (!("str" in item) || item.str === "") continue;
        const y = Math.round(item.transform[5] as number);
        const x = item.transform[4] as number;
        rows.set(y, [...(rows.get(y) ?? []), { x, end: x + item.width, text: item.str }]);
      }
    }
    return [...rows.entries()]
      .sort(([a], [b]) => b - a)
      .map(([, items]) => {
        let line = "";
        let end = Number.NEGATIVE_INFINITY;
        for (const item of items.sort((a, b) => a.x - b.x)) {
          // Runs that do not touch are separate words even when no space was drawn.
          line += item.x - end > 1 ? ` ${item.text}` : item.text;
          end = item.end;
        }
        return line.replace(/\s+/g, " ").trim();
      });
  } finally {
    await pdf.destroy();
  }
}

interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** The images a PDF carries, as RGBA pixels (the generator embeds 8-bit RGB or grey). */
async function pdfImages(bytes: Uint8Array): Promise<Pixels[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const images: Pixels[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of("Subtype")) !== PDFName.of("Image")) continue;
    const width = (object.dict.get(PDFName.of("Width")) as PDFNumber).asNumber();
    const height = (object.dict.get(PDFName.of("Height")) as PDFNumber).asNumber();
    const samples = decodePDFRawStream(object).decode();
    const channels = samples.length / (width * height);
    expect([1, 3]).toContain(channels);
    const data = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      for (let c = 0; c < 3; c++) data[i * 4 + c] = samples[i * channels + (channels === 3 ? c : 0)] ?? 0;
      data[i * 4 + 3] = 255;
    }
    images.push({ data, width, height });
  }
  return images;
}

function photoPixels(file: string, bytes: Uint8Array): Pixels {
  if (file.endsWith(".png")) {
    const png = PNG.sync.read(Buffer.from(bytes));
    return { data: new Uint8ClampedArray(png.data), width: png.width, height: png.height };
  }
  const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  return { data: new Uint8ClampedArray(image.data), width: image.width, height: image.height };
}

async function qrCodes(pixels: Pixels): Promise<string[]> {
  const results = await readBarcodes(pixels as unknown as Parameters<typeof readBarcodes>[0], {
    formats: ["QRCode"],
    tryHarder: false,
  });
  return results.filter((result) => result.isValid).map((result) => result.text);
}

/** What a printed line reads as, given the certificate's colon style. */
function expectedLine(spec: CertificateSpec, label: string, value: string): string {
  const colon = spec.messiness?.colon ?? "column";
  const text =
    colon === "column" ? `${label} : ${value}` : colon === "attached" ? `${label}: ${value}` : `${label} ${value}`;
  return text.replace(/\s+/g, " ");
}

/** Every PDF the catalogue publishes with a text layer: uploads and the issuer's copies. */
function readablePdfs(): { file: string; spec: CertificateSpec }[] {
  const pdfs = new Map<string, CertificateSpec>();
  for (const entry of CATALOGUE) {
    if (entry.upload.kind === "pdf" || entry.upload.kind === "resaved-pdf") pdfs.set(entry.file, entry.upload.spec);
    const where = issuerPath(entry);
    if (entry.issuer.kind === "document" && where) pdfs.set(where, entry.issuer.spec);
  }
  return [...pdfs].map(([file, spec]) => ({ file, spec }));
}

beforeAll(async () => {
  // The reader's wasm binary from node_modules: the library would otherwise fetch it from a CDN.
  const binary = readFileSync(createRequire(__filename).resolve("zxing-wasm/reader/zxing_reader.wasm"));
  const wasmBinary = binary.buffer.slice(binary.byteOffset, binary.byteOffset + binary.byteLength);
  await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
});

describe("the published test documents", () => {
  let fresh: string;

  beforeAll(async () => {
    fresh = mkdtempSync(path.join(os.tmpdir(), "test-documents-"));
    await writeTestDocuments(fresh);
  });

  afterAll(() => {
    rmSync(fresh, { recursive: true, force: true });
  });

  it("are byte for byte what the generator makes now", async () => {
    const committed = (await filesUnder(published)).sort();
    expect(committed).toEqual((await filesUnder(fresh)).sort());
    for (const file of committed) {
      const same = Buffer.compare(read(file), new Uint8Array(readFileSync(path.join(fresh, file)))) === 0;
      expect(same, `${file} differs from a fresh run: npm run test-documents`).toBe(true);
    }
  });

  it("cover every decision a document can reach", () => {
    const reasons = new Set(CATALOGUE.map((entry) => entry.expected.reason_code));
    expect([...reasons].sort()).toEqual(
      [
        "verified",
        "document_unreadable",
        "barcode_missing",
        "document_not_found_at_issuer",
        "document_altered",
        "student_not_active",
        "student_not_accommodated",
        "not_graduated",
        "criminal_record_present",
        "subject_mismatch",
        "issuer_unavailable",
        "fields_incomplete",
        "original_pdf_not_provided",
      ].sort(),
    );
    // Every document type reaches a verified result.
    const verified = CATALOGUE.filter(
      (entry) => entry.expected.reason_code === "verified" && !entry.create.expected_subject,
    );
    expect([...new Set(verified.map((entry) => entry.documentType))].sort()).toEqual([...DOCUMENT_TYPE_CODES].sort());
  });

  it("carry synthetic identity numbers that pass the official checksum", () => {
    const numbers = new Set(CATALOGUE.map((entry) => entry.upload.spec.identityNumber));
    for (const number of numbers) expect(validIdentityNumber(number), number).toBe(true);
    // One person a certificate, apart from the photos and the altered and re-saved copies of issued ones.
    expect(numbers.size).toBe(18);
  });

  it("read back every label and value from the text layer, Turkish letters as Unicode", async () => {
    for (const { file, spec } of readablePdfs()) {
      const lines = await textLines(read(file));
      const text = lines.join("\n");
      for (const letter of TURKISH_LETTERS) expect(text, `${file} lacks ${letter}`).toContain(letter);
      for (const { label, value } of printedLines(spec)) {
        expect(lines, `${file}: ${label}`).toContain(expectedLine(spec, label, value));
      }
    }
  });

  it("print the labels as each certificate's messiness asks", async () => {
    const graduated = await textLines(read("yok-graduated.pdf"));
    expect(graduated).toEqual(expect.arrayContaining(["Adi İREM", "Soyadi SINAMACI", "Dogum Tarihi 29.06.1999"]));
    expect(graduated).toContain("Universite ÖRNEK TEKNİK ÜNİVERSİTESİ");
    expect(graduated).toContain("Belge Dogrulama Kodu TESTYOK-0002-MEZUN");
    const accommodated = await textLines(read("gsb-accommodated.pdf"));
    expect(accommodated).toEqual(
      expect.arrayContaining(["YURTTA KALMA DURUMU: Yurtta Kalıyor", "SOYADI: ÖRNEKOĞLU", "İLÇE: TEPEBAŞI"]),
    );
    const active = await textLines(read("yok-active.pdf"));
    expect(active).toContain(
      "Birimi : DENEME ÜNİVERSİTESİ / MÜHENDİSLİK FAKÜLTESİ / BİLGİSAYAR MÜHENDİSLİĞİ / BİLGİSAYAR MÜHENDİSLİĞİ (İNGİLİZCE)",
    );
    expect(active).toContain("Adı Soyadı : AYŞE DENEME");
    const left = await textLines(read("gsb-left-dorm.pdf"));
    expect(left).toContain("YURTTA KALMA DURUMU : Ayrıldı");
  });

  it("print no barcode where the row needs none, and the altered status only on the upload", async () => {
    const noBarcode = (await textLines(read("yok-no-barcode.pdf"))).join("\n");
    expect(noBarcode).not.toMatch(/barkod|do[gğ]rulama kodu/i);
    expect(await pdfImages(read("yok-no-barcode.pdf"))).toEqual([]);

    const altered = CATALOGUE.find((entry) => entry.expected.reason_code === "document_altered") as CatalogueEntry;
    const upload = await textLines(read(altered.file));
    const original = await textLines(read(issuerPath(altered) as string));
    expect(upload).toContain("ÖĞRENCİLİK DURUMU : Aktif Öğrenci");
    expect(original).toContain("ÖĞRENCİLİK DURUMU : Mezun");
    expect(upload.filter((line) => !original.includes(line))).toEqual(["ÖĞRENCİLİK DURUMU : Aktif Öğrenci"]);
  });

  it("re-save copies of an issued PDF: other bytes, the same text as the issuer's copy or one value changed", async () => {
    const resaved = CATALOGUE.filter((entry) => entry.upload.kind === "resaved-pdf");
    expect(resaved.map((entry) => entry.expected.reason_code).sort()).toEqual(["document_altered", "verified"]);
    for (const entry of resaved) {
      const upload = read(entry.file);
      const copy = read(issuerPath(entry) as string);
      expect(Buffer.compare(upload, copy), entry.file).not.toBe(0);
      const uploadLines = await textLines(upload);
      const copyLines = await textLines(copy);
      const changed = uploadLines.filter((line) => !copyLines.includes(line));
      expect(changed, entry.file).toEqual(entry.expected.reason_code === "verified" ? [] : ["Sınıfı : 4. Sınıf"]);
      expect(uploadLines.length).toBe(copyLines.length);
    }
  });

  it("print an issue date on every certificate but the one that shows a document without", async () => {
    const undated = [];
    for (const { file, spec } of readablePdfs()) {
      const date = issueDateOf(spec.documentType, await textLines(read(file)));
      if (date === null) undated.push(file);
      else expect(date, file).toMatch(/^2026-\d{2}-\d{2}$/);
    }
    expect(undated.sort()).toEqual([
      "edevlet-document-undated.pdf",
      "issuer/EDEVLET_DOCUMENT/TESTEDV-0002-TARIHSIZ.pdf",
    ]);
  });

  it("protect the unreadable one with a password that no reader is given", async () => {
    const entry = CATALOGUE.find((e) => e.upload.kind === "encrypted-pdf") as CatalogueEntry;
    const bytes = read(entry.file);
    const password = entry.upload.kind === "encrypted-pdf" ? entry.upload.password : "";
    const error = await textLines(bytes).then(
      () => undefined,
      (caught: PdfJsError) => caught,
    );
    expect(error?.name).toBe("PasswordException");
    expect((await PDFDocument.load(bytes, { ignoreEncryption: true })).isEncrypted).toBe(true);
    // With the password it is a whole certificate: the file is unreadable only for want of it.
    const lines = await textLines(bytes, password);
    expect(lines).toContain(`Barkod No : ${entry.upload.spec.barcode}`);
  });

  it("carry QR codes, in the PDFs' images and in the photos, that decode to the barcode and identity number", async () => {
    const seen = new Set<string>();
    const kinds = new Set<string>();
    for (const entry of CATALOGUE) {
      if (seen.has(entry.file) || entry.upload.kind === "encrypted-pdf") continue;
      seen.add(entry.file);
      const { spec } = entry.upload;
      const bytes = read(entry.file);
      let codes: string[];
      if (entry.upload.kind === "photo") {
        const pixels = photoPixels(entry.file, bytes);
        expect([pixels.width, pixels.height]).toEqual([1200, 1600]);
        codes = await qrCodes(pixels);
      } else {
        codes = (await Promise.all((await pdfImages(bytes)).map(qrCodes))).flat();
      }
      const expected = qrText(spec);
      expect(codes, entry.file).toEqual(expected === undefined ? [] : [expected]);
      if (expected === undefined) continue;
      const qr = spec.qr ?? { kind: "edevlet" };
      kinds.add(qr.kind);
      expect(payloadKeys(qr.kind, codes[0] ?? ""), entry.file).toEqual(
        qr.kind === "bare" ? { barcode: spec.barcode } : { barcode: spec.barcode, identityNumber: spec.identityNumber },
      );
    }
    // Real certificates carry the app's payload; the link and the bare barcode are there too.
    expect([...kinds].sort()).toEqual(["bare", "edevlet", "link"]);
    const active = CATALOGUE.find((entry) => entry.file === "yok-active.pdf") as CatalogueEntry;
    expect(qrText(active.upload.spec)).toBe("barkodlubelgedogrulama://barkod: TESTYOK-0001-AKTIF;tckn:10000000146");
  });

  it("leave in the issuer folder exactly what the catalogue says the authority holds", async () => {
    const expected = new Map<string, CatalogueEntry>();
    for (const entry of CATALOGUE) {
      const where = issuerPath(entry);
      if (where) expected.set(where, entry);
    }
    const held = (await filesUnder(path.join(published, "issuer"))).map((file) => `issuer/${file}`).sort();
    expect(held).toEqual([...expected.keys()].sort());

    for (const entry of CATALOGUE) {
      const barcode = entry.upload.spec.barcode;
      const where = issuerPath(entry);
      switch (entry.issuer.kind) {
        case "nothing":
          expect(where).toBeUndefined();
          if (barcode)
            expect(
              held.some((file) => file.includes(`/${barcode}.`)),
              entry.file,
            ).toBe(false);
          break;
        case "busy":
          expect(where).toBe(`issuer/${entry.documentType}/${barcode}.busy`);
          expect(read(where as string).length).toBe(0);
          break;
        case "document": {
          expect(where).toBe(`issuer/${entry.documentType}/${barcode}.pdf`);
          const copy = read(where as string);
          if (entry.upload.kind !== "pdf") break;
          // The issuer's copy is the upload itself unless the row is about a difference.
          const same = Buffer.compare(copy, read(entry.file)) === 0;
          expect(same, entry.file).toBe(entry.expected.reason_code !== "document_altered");
          break;
        }
      }
    }
  });

  it("are described in the README, one row a case, with the sandbox prefixes", () => {
    const readme = readFileSync(path.join(published, "README.md"), "utf8");
    const rows = readme.split("\n").filter((line) => line.startsWith("| [`"));
    for (const entry of CATALOGUE) {
      const body = JSON.stringify({
        document_type: entry.documentType,
        original_filename: entry.file,
        file_size_bytes: read(entry.file).length,
        ...entry.create,
      });
      const row = rows.find((line) => line.includes(body));
      expect(row, entry.file).toBeDefined();
      expect(row).toContain(`[\`${entry.file}\`](${entry.file})`);
      expect(row).toContain(
        `\`${entry.expected.status}\` | ${entry.expected.result === null ? "-" : `\`${entry.expected.result}\``} | \`${entry.expected.reason_code}\``,
      );
    }
    for (const prefix of Object.keys(SANDBOX_PREFIXES)) expect(readme).toContain(`\`${prefix}\``);
    expect(readme).toMatch(/invented/);
  });
});
