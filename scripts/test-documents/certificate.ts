/**
 * Synthetic e-Devlet certificates of every type of the registry, each from its template
 * (`templates.ts`), as a PDF with a text layer and a QR code, or as a photo of one. The QR code carries what real certificates carry, the payload e-Devlet's own
 * verification app reads (edevlet.md, section 3), unless the spec asks for another. They feed
 * tests, the sandbox's e-Devlet and docs/test-documents/. No real certificate may be used (they
 * are personal data), so every name and number comes from the spec, and the catalogue only uses
 * invented ones.
 *
 * The layout follows the working model in docs "verification-engine.md" (The layout we read).
 * The messiness options reproduce the ways real text layers differ, so parsers meet them here
 * first. Output is deterministic: the same spec gives the same bytes, which lets the committed
 * test documents be compared with a fresh run.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import jpeg from "jpeg-js";
import { PageSizes, PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb } from "pdf-lib";
import { prepareZXingModule, writeBarcode } from "zxing-wasm/writer";
import { registryEntry } from "#shared/domain/document-registry";
import { DOCUMENT_TYPE_CODES, type DocumentType } from "#shared/domain/document-types";
import { seededRandom } from "../seeded-random.ts";
import { drawText } from "./glyphs.ts";
import { encodePng } from "./png.ts";
import { type Line, type TemplateFields, templateOf } from "./templates.ts";

export type {
  CriminalRecordFields,
  EdevletDocumentFields,
  GsbKykDormFields,
  NviResidenceFields,
  PersonFields,
  SgkServiceRecordFields,
  YokGraduateFields,
  YokStudentFields,
} from "./templates.ts";

const resolve = createRequire(__filename).resolve;

/** Every type of the registry has a template, so the generator makes each of them. */
export const CERTIFICATE_TYPES = DOCUMENT_TYPE_CODES;
export type CertificateType = DocumentType;

/** How far the text layer strays from the tidy form. Every option defaults to the tidy choice. */
export interface Messiness {
  /** Labels as printed on the form ("Doğum Tarihi") or in upper case ("DOĞUM TARİHİ"). */
  labelCase?: "printed" | "upper";
  /** Labels with the ASCII look-alikes of Turkish letters ("Dogum Tarihi"); values keep theirs. */
  asciiLabels?: boolean;
  /** A colon in its own column, right after the label, or none at all. */
  colon?: "column" | "attached" | "none";
  /** A value drawn as one text run, one run per word, or runs that cut through words. */
  valueRuns?: "single" | "words" | "pieces";
  /** The fields in the form's order, or shuffled (the same way for the same person). */
  order?: "standard" | "shuffled";
  /** YÖK student: the name as one `Adı Soyadı` line or as `Adı` and `Soyadı`. */
  name?: "one-line" | "separate-lines";
  /** YÖK: the unit path as one `Birimi` line or as `Üniversite`, `Fakülte`, `Bölüm`, `Program`. */
  unitPath?: "one-line" | "separate-lines";
  barcodeLabel?: "Barkod No" | "Belge Doğrulama Kodu";
}

/**
 * The payload e-Devlet's own verification app reads, `barkodlubelgedogrulama://barkod: <barcode>;tckn:<T.C. number>`,
 * and the ways it is printed. Every option defaults to that form.
 */
export interface AppPayload {
  kind: "edevlet";
  /** `barkodlubelgedogrulama://` in front, or nothing. */
  scheme?: boolean;
  /** The scheme and the names in lower case, or in upper case (`BARKOD:`, `TCKN:`). */
  case?: "lower" | "upper";
  /** A space after `barkod:`, or none. */
  spaceAfterBarcode?: boolean;
  /** A `;` after the last item. */
  trailingSeparator?: boolean;
  /** Items after the pairs, each after a `;`, as transcripts append their `https://…` link. */
  furtherItems?: readonly string[];
}

/**
 * What the QR code says: e-Devlet's app payload (the default), a verification link whose query
 * carries the barcode and the identity number, the bare barcode, or no QR code at all.
 */
export type QrCode =
  | AppPayload
  | { kind: "link"; parameter?: "barkod" | "belgeNo" | "barcode" }
  | { kind: "bare" }
  | { kind: "none" };

interface SpecBase {
  /** 11 digits with a valid checksum; printed after `T.C. Kimlik No` and carried by the QR code. */
  identityNumber: string;
  /** 8 to 40 of A-Z 0-9 -; printed after `Barkod No` and in the QR code. Absent: neither is printed. */
  barcode?: string;
  /** What the QR code says; e-Devlet's app payload when absent. */
  qr?: QrCode;
  /**
   * The `T.C. Kimlik No` and barcode lines left off the text layer, so that the certificate
   * carries its keys only in its QR code (a "QR-only" PDF, or a photo of one).
   */
  qrOnly?: boolean;
  messiness?: Messiness;
  /**
   * The issue date as printed after the type's first issue-date label (`DD.MM.YYYY`, maybe with
   * a time); the template's fixed date when absent, nothing when null.
   */
  issuedAt?: string | null;
}

/** The spec of one certificate of `Type`. */
export type SpecOf<Type extends DocumentType> = SpecBase & { documentType: Type; fields: TemplateFields[Type] };

export type YokStudentSpec = SpecOf<"YOK_STUDENT">;
export type GsbKykDormSpec = SpecOf<"GSB_KYK_DORM">;

export type CertificateSpec = { [Type in DocumentType]: SpecOf<Type> }[DocumentType];

export type PhotoFormat = "png" | "jpeg";

/** One `label : value` line as printed, the label already in the spec's case and letters. */
export interface PrintedLine {
  label: string;
  value: string;
}

/** The contract's barcode shape (verification-engine.md): what the generator may print. */
export const BARCODE_PATTERN = /^[A-Z0-9-]{8,40}$/;
export const VERIFICATION_PAGE = "https://www.turkiye.gov.tr/belge-dogrulama";
const APP_PAYLOAD_SCHEME = "barkodlubelgedogrulama://";

/** Fixed, so that nothing in a file depends on when it was made. */
const DOCUMENT_DATE = new Date("2025-09-15T09:00:00.000Z");
const PRODUCER = "verification-api synthetic test documents";

// ---------------------------------------------------------------------------------------------
// Identity numbers

/** The two check digits of a T.C. identity number, from its first nine digits. */
export function identityCheckDigits(firstNine: string): string {
  if (!/^[1-9][0-9]{8}$/.test(firstNine)) throw new Error("Nine digits expected, the first not zero");
  const d = [...firstNine].map(Number);
  const odd = (d[0] ?? 0) + (d[2] ?? 0) + (d[4] ?? 0) + (d[6] ?? 0) + (d[8] ?? 0);
  const even = (d[1] ?? 0) + (d[3] ?? 0) + (d[5] ?? 0) + (d[7] ?? 0);
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  const eleventh = (d.reduce((sum, digit) => sum + digit, 0) + tenth) % 10;
  return `${tenth}${eleventh}`;
}

export function isValidIdentityNumber(value: string): boolean {
  return /^[1-9][0-9]{10}$/.test(value) && identityCheckDigits(value.slice(0, 9)) === value.slice(9);
}

/**
 * The identity number for a serial: `1`, the serial in eight digits, then the check digits.
 * Serial 1 gives 10000000146, a number widely used as a placeholder.
 */
export function syntheticIdentityNumber(serial: number): string {
  if (!Number.isInteger(serial) || serial < 0 || serial > 99_999_999) throw new Error("Serial out of range");
  const firstNine = `1${String(serial).padStart(8, "0")}`;
  return firstNine + identityCheckDigits(firstNine);
}

// ---------------------------------------------------------------------------------------------
// What is printed

const IDENTITY_NUMBER_LABEL = "T.C. Kimlik No";

const ASCII_LOOK_ALIKES: Record<string, string> = {
  ı: "i",
  İ: "I",
  ş: "s",
  Ş: "S",
  ğ: "g",
  Ğ: "G",
  ü: "u",
  Ü: "U",
  ö: "o",
  Ö: "O",
  ç: "c",
  Ç: "C",
};

/** Turkish upper case without relying on the ICU data Node was built with: i -> İ, ı -> I. */
function turkishUpperCase(text: string): string {
  return text.replace(/i/g, "İ").replace(/ı/g, "I").toUpperCase();
}

function printedLabel(label: string, messiness: Messiness): string {
  let text = messiness.labelCase === "upper" ? turkishUpperCase(label) : label;
  if (messiness.asciiLabels) text = text.replace(/[ıİşŞğĞüÜöÖçÇ]/g, (letter) => ASCII_LOOK_ALIKES[letter] ?? letter);
  return text;
}

/** FNV-1a: a seed for the shuffle that depends only on the spec. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (const char of text) {
    h ^= char.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The identity number as the text layer prints it: not at all on a QR-only certificate. */
const printedIdentityNumber = (spec: SpecBase) => (spec.qrOnly ? undefined : spec.identityNumber);

/** The type's template's lines for the spec, after the identity number. */
function templateLines(spec: CertificateSpec, messiness: Messiness): Line[] {
  const lines = templateOf(spec.documentType).lines(spec.fields, messiness);
  return [[IDENTITY_NUMBER_LABEL, printedIdentityNumber(spec)], ...lines];
}

/** The issue-date line: the type's first issue-date label and the spec's date, or the template's. */
export function printedIssueDate(spec: CertificateSpec): PrintedLine | undefined {
  if (spec.issuedAt === null) return undefined;
  const messiness = spec.messiness ?? {};
  const label = registryEntry(spec.documentType).issueDateLabels[0];
  return { label: printedLabel(label, messiness), value: spec.issuedAt ?? templateOf(spec.documentType).issuedAt };
}

/** The field lines in print order, labels as printed; absent fields are left out. */
export function printedFields(spec: CertificateSpec): PrintedLine[] {
  const messiness = spec.messiness ?? {};
  const raw = templateLines(spec, messiness);
  const lines = raw.flatMap(([label, value]) =>
    value === undefined || value.trim() === "" ? [] : [{ label: printedLabel(label, messiness), value }],
  );
  if (messiness.order === "shuffled") {
    const random = seededRandom(hash(`${spec.identityNumber}/${spec.barcode ?? ""}`));
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [lines[i], lines[j]] = [lines[j] as PrintedLine, lines[i] as PrintedLine];
    }
  }
  return lines;
}

/** The barcode line, when the certificate carries a barcode and prints it. */
export function printedBarcode(spec: CertificateSpec): PrintedLine | undefined {
  if (spec.barcode === undefined || spec.qrOnly) return undefined;
  const messiness = spec.messiness ?? {};
  return { label: printedLabel(messiness.barcodeLabel ?? "Barkod No", messiness), value: spec.barcode };
}

/** Every `label : value` line, top to bottom: the fields, the issue date, then the barcode. */
export function printedLines(spec: CertificateSpec): PrintedLine[] {
  return [printedFields(spec), printedIssueDate(spec), printedBarcode(spec)]
    .flat()
    .filter((line) => line !== undefined);
}

/** e-Devlet's app payload for a barcode and an identity number, printed as `payload` asks. */
function appPayloadText(barcode: string, identityNumber: string, payload: AppPayload): string {
  const cased = (text: string) => (payload.case === "upper" ? text.toUpperCase() : text);
  const scheme = payload.scheme === false ? "" : cased(APP_PAYLOAD_SCHEME);
  const space = payload.spaceAfterBarcode === false ? "" : " ";
  const items = [`${cased("barkod:")}${space}${barcode}`, `${cased("tckn:")}${identityNumber}`];
  return `${scheme}${[...items, ...(payload.furtherItems ?? [])].join(";")}${payload.trailingSeparator ? ";" : ""}`;
}

/** What the QR code encodes, or undefined when the certificate has none. */
export function qrText(spec: CertificateSpec): string | undefined {
  if (spec.barcode === undefined) return undefined;
  const qr = spec.qr ?? { kind: "edevlet" };
  switch (qr.kind) {
    case "none":
      return undefined;
    case "bare":
      return spec.barcode;
    case "link":
      return `${VERIFICATION_PAGE}?${qr.parameter ?? "barkod"}=${spec.barcode}&tckn=${spec.identityNumber}`;
    case "edevlet":
      return appPayloadText(spec.barcode, spec.identityNumber, qr);
  }
}

function validate(spec: CertificateSpec): void {
  if (!isValidIdentityNumber(spec.identityNumber)) throw new Error(`Invalid identity number ${spec.identityNumber}`);
  if (spec.barcode !== undefined && !BARCODE_PATTERN.test(spec.barcode)) {
    throw new Error(`Invalid barcode ${spec.barcode}`);
  }
}

// ---------------------------------------------------------------------------------------------
// QR codes

let writerReady: Promise<unknown> | undefined;

/** The QR symbol as rows of dark (true) and light modules, without the quiet zone. */
export async function qrModules(text: string): Promise<boolean[][]> {
  // The wasm binary comes from node_modules: the library would otherwise fetch it from a CDN.
  writerReady ??= (() => {
    const binary = readFileSync(resolve("zxing-wasm/writer/zxing_writer.wasm"));
    const wasmBinary = binary.buffer.slice(binary.byteOffset, binary.byteOffset + binary.byteLength);
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  await writerReady;
  const result = await writeBarcode(text, { format: "QRCode", scale: 1, addQuietZones: false, options: "ecLevel=M" });
  if (result.error) throw new Error(`QR code not written: ${result.error}`);
  const { data, width, height } = result.symbol;
  return Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => data[y * width + x] === 0));
}

/** The four-module light margin a QR code needs around it. */
const QUIET_ZONE = 4;

/** A crisp grey PNG of the QR code, `scale` pixels a module, quiet zone included. */
function qrPng(modules: boolean[][], scale: number): Uint8Array {
  const size = (modules.length + 2 * QUIET_ZONE) * scale;
  const data = new Uint8Array(size * size).fill(255);
  modules.forEach((row, my) => {
    row.forEach((dark, mx) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++) {
        const start = ((my + QUIET_ZONE) * scale + dy) * size + (mx + QUIET_ZONE) * scale;
        data.fill(0, start, start + scale);
      }
    });
  });
  return encodePng({ width: size, height: size, channels: 1, data });
}

// ---------------------------------------------------------------------------------------------
// Layout, shared by the PDF and the photo

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN_X = 56;
const RIGHT_X = PAGE_WIDTH - 56;
const FIELDS_TOP = 664;
const LINE_GAP = 21;
const TEXT_SIZE = 10;
const QR_BOX = { x: MARGIN_X, y: 60, size: 118 };

// These notes print every Turkish letter in both cases, whatever the heading, so any certificate
// shows whether its text layer extracts them as Unicode.
const SYNTHETIC_NOTICE = "SENTETİK TEST BELGESİ - GERÇEK KİŞİ VERİSİ İÇERMEZ - DOĞRULAMA İÇİN ÜRETİLMİŞ ÖRNEKTİR";
const FOOTNOTE =
  "Bu belge yalnızca deneme amaçlı üretilmiştir; içindeki kişi, öğrenci, kurum ve belge bilgileri gerçek değildir. " +
  "Adlar ve numaralar uydurmadır.";

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Where a layout draws: the PDF page, or the photo's paper. */
interface Surface {
  /** Text whose baseline starts at (x, y), in points from the bottom left; grey 0 is black. */
  text(text: string, x: number, y: number, size: number, font: PDFFont, grey: number): void;
  line(x1: number, y1: number, x2: number, y2: number, grey: number): void;
  qr(x: number, y: number, size: number): void;
}

/** The runs a value is drawn as, each with the index where it starts. */
function valueRuns(value: string, mode: Messiness["valueRuns"]): { text: string; start: number }[] {
  if (mode === "words") {
    return [...value.matchAll(/\S+/g)].map((match) => ({ text: match[0], start: match.index }));
  }
  if (mode === "pieces") {
    // Pieces of four characters: some end inside a word, some start with a space.
    const runs: { text: string; start: number }[] = [];
    const characters = [...value];
    let offset = 0;
    for (let i = 0; i < characters.length; i += 4) {
      const text = characters.slice(i, i + 4).join("");
      runs.push({ text, start: offset });
      offset += text.length;
    }
    return runs;
  }
  return [{ text: value, start: 0 }];
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current) lines.push(current);
  return lines;
}

function layOut(spec: CertificateSpec, fonts: Fonts, surface: Surface): void {
  const messiness = spec.messiness ?? {};
  const centred = (text: string, y: number, size: number, font: PDFFont, grey: number) =>
    surface.text(text, (PAGE_WIDTH - font.widthOfTextAtSize(text, size)) / 2, y, size, font, grey);

  const heading = templateOf(spec.documentType).heading(spec.fields);
  let y = 780;
  for (const line of heading.authority) {
    centred(line, y, 12, fonts.bold, 0);
    y -= 17;
  }
  centred(heading.title, y - 12, 16, fonts.bold, 0);

  surface.line(MARGIN_X, 692, RIGHT_X, 692, 0.5);

  const issued = printedIssueDate(spec);
  const fields = issued ? [...printedFields(spec), issued] : printedFields(spec);
  const barcode = printedBarcode(spec);
  const all = barcode ? [...fields, barcode] : fields;
  const colon = messiness.colon ?? "column";
  const labelText = (label: string) => (colon === "attached" ? `${label}:` : label);
  // The value column starts after the widest label, as on the forms.
  const labelWidth = Math.max(...all.map((line) => fonts.bold.widthOfTextAtSize(labelText(line.label), TEXT_SIZE)));
  const colonX = MARGIN_X + labelWidth + 8;
  const valueX = colonX + (colon === "column" ? 10 : 4);

  const drawLine = (line: PrintedLine, baseline: number) => {
    surface.text(labelText(line.label), MARGIN_X, baseline, TEXT_SIZE, fonts.bold, 0);
    if (colon === "column") surface.text(":", colonX, baseline, TEXT_SIZE, fonts.bold, 0);
    // A long value is set smaller rather than wrapped: a wrapped value would read as two lines.
    let size = TEXT_SIZE;
    while (size > 6 && fonts.regular.widthOfTextAtSize(line.value, size) > RIGHT_X - valueX) size -= 0.5;
    for (const run of valueRuns(line.value, messiness.valueRuns)) {
      const x = valueX + fonts.regular.widthOfTextAtSize(line.value.slice(0, run.start), size);
      surface.text(run.text, x, baseline, size, fonts.regular, 0);
    }
  };

  fields.forEach((line, index) => {
    drawLine(line, FIELDS_TOP - index * LINE_GAP);
  });
  const fieldsBottom = FIELDS_TOP - (fields.length - 1) * LINE_GAP;
  if (barcode) drawLine(barcode, fieldsBottom - 2 * LINE_GAP);

  // Below the fields, so that the heading stays the last line above the first label.
  centred(SYNTHETIC_NOTICE, QR_BOX.y + QR_BOX.size + 24, 8, fonts.regular, 0.35);
  const noteX = qrText(spec) ? QR_BOX.x + QR_BOX.size + 16 : MARGIN_X;
  wrap(FOOTNOTE, fonts.regular, 8, RIGHT_X - noteX).forEach((line, index) => {
    surface.text(line, noteX, QR_BOX.y + QR_BOX.size - 20 - index * 12, 8, fonts.regular, 0.35);
  });
  if (qrText(spec)) surface.qr(QR_BOX.x, QR_BOX.y, QR_BOX.size);
}

async function newDocument(spec: CertificateSpec): Promise<{ document: PDFDocument; fonts: Fonts }> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.registerFontkit(fontkit);
  // Subset and named: only the glyphs used are stored (with a ToUnicode map, so the Turkish
  // letters extract as Unicode), and the fixed subset names keep the bytes reproducible.
  const font = (file: string, name: string) =>
    document.embedFont(readFileSync(resolve(`dejavu-fonts-ttf/ttf/${file}`)), { subset: true, customName: name });
  const fonts = {
    regular: await font("DejaVuSans.ttf", "TSTDJV+DejaVuSans"),
    bold: await font("DejaVuSans-Bold.ttf", "TSTDJB+DejaVuSans-Bold"),
  };
  const title = templateOf(spec.documentType).documentTitle;
  document.setTitle(`${title} (sentetik test belgesi)`);
  document.setCreator(PRODUCER);
  document.setProducer(PRODUCER);
  document.setCreationDate(DOCUMENT_DATE);
  document.setModificationDate(DOCUMENT_DATE);
  document.setLanguage("tr-TR");
  return { document, fonts };
}

// ---------------------------------------------------------------------------------------------
// The PDF

/**
 * One A4 certificate: the fields as text, the barcode line and the QR code as an image (a
 * QR-only one without the identity number and barcode lines).
 */
export async function certificatePdf(spec: CertificateSpec): Promise<Uint8Array> {
  validate(spec);
  const { document, fonts } = await newDocument(spec);
  const page: PDFPage = document.addPage(PageSizes.A4);
  const payload = qrText(spec);
  // Four pixels a module: the image stays sharp for readers that decode the embedded image
  // itself rather than a rendering of the page.
  const qrImage: PDFImage | undefined = payload
    ? await document.embedPng(qrPng(await qrModules(payload), 4))
    : undefined;
  page.drawRectangle({
    x: 28,
    y: 28,
    width: PAGE_WIDTH - 56,
    height: PAGE_HEIGHT - 56,
    borderColor: rgb(0.6, 0.6, 0.6),
    borderWidth: 0.8,
  });
  layOut(spec, fonts, {
    text: (text, x, y, size, font, grey) => page.drawText(text, { x, y, size, font, color: rgb(grey, grey, grey) }),
    line: (x1, y1, x2, y2, grey) =>
      page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.8, color: rgb(grey, grey, grey) }),
    qr: (x, y, size) => {
      if (qrImage) page.drawImage(qrImage, { x, y, width: size, height: size });
    },
  });
  return document.save({ useObjectStreams: false, updateFieldAppearances: false });
}

// ---------------------------------------------------------------------------------------------
// The photo

const PHOTO_WIDTH = 1200;
const PHOTO_HEIGHT = 1600;
/** Pixels a point on the photographed paper. */
const PAPER_SCALE = 1.76;
/** About 1.2 degrees: the page lies a little askew, as on a desk. */
const TILT = { cos: 0.99978, sin: 0.0209 };
/** The camera leans back a little: the paper's far (top) edge shows 6 % narrower than its near one. */
const PERSPECTIVE = 0.06;
/** Where the paper's shadow falls on the desk (in paper pixels, down and right of it), and how soft it is. */
const SHADOW = { dx: 9, dy: 12, softness: 14, depth: 0.45 } as const;
const PAPER_TINT = [222, 220, 213] as const;
const DESK = [88, 80, 72] as const;

/** The photographed page in grey, one byte a pixel, 255 being bare paper. */
function paperPixels(spec: CertificateSpec, fonts: Fonts, modules: boolean[][] | undefined) {
  const width = Math.round(PAGE_WIDTH * PAPER_SCALE);
  const height = Math.round(PAGE_HEIGHT * PAPER_SCALE);
  const paper = new Uint8Array(width * height).fill(255);
  const fill = (x0: number, y0: number, x1: number, y1: number, value: number) => {
    for (let y = Math.max(0, Math.round(y0)); y < Math.min(height, Math.round(y1)); y++) {
      paper.fill(value, y * width + Math.max(0, Math.round(x0)), y * width + Math.min(width, Math.round(x1)));
    }
  };
  // Points (from the bottom) to pixels (from the top).
  const px = (x: number) => x * PAPER_SCALE;
  const py = (y: number) => (PAGE_HEIGHT - y) * PAPER_SCALE;
  const bitmap = { width, height, pixels: paper };
  layOut(spec, fonts, {
    // No text layer: the glyphs drawn as ink on the paper, from the fonts the PDF embeds.
    text: (text, x, y, size, font, grey) =>
      drawText(
        bitmap,
        text,
        font === fonts.bold ? "bold" : "regular",
        size * PAPER_SCALE,
        px(x),
        py(y),
        40 + grey * 150,
      ),
    line: (x1, y1, x2, _y2, grey) => fill(px(x1), py(y1) - 1, px(x2), py(y1) + 1, Math.round(40 + grey * 150)),
    qr: (x, y, size) => {
      if (!modules) return;
      const count = modules.length + 2 * QUIET_ZONE;
      const left = px(x);
      const top = py(y + size);
      const module = (size * PAPER_SCALE) / count;
      modules.forEach((row, my) => {
        row.forEach((dark, mx) => {
          const x0 = left + (mx + QUIET_ZONE) * module;
          const y0 = top + (my + QUIET_ZONE) * module;
          if (dark) fill(x0, y0, x0 + module, y0 + module, 25);
        });
      });
    },
  });
  return { width, height, paper };
}

/** The paper's shadow on the desk at (`u`, `v`), `SHADOW`'s offset taken off: darkest under the paper, fading away from its edge. */
function shadowOn(u: number, v: number, width: number, height: number): number {
  const outside = Math.hypot(Math.max(0, -u, u - width), Math.max(0, -v, v - height));
  return 1 - SHADOW.depth * Math.exp(-outside / SHADOW.softness);
}

/** `paper` with each pixel the mean of it and its eight neighbours (the edges keep their own). */
function blurred(paper: Uint8Array, width: number, height: number): Uint8Array {
  const out = Uint8Array.from(paper);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const row = (y + dy) * width + x;
        sum += (paper[row - 1] ?? 255) + (paper[row] ?? 255) + (paper[row + 1] ?? 255);
      }
      out[y * width + x] = Math.round(sum / 9);
    }
  }
  return out;
}

/**
 * A photo of the certificate: the page a little askew on a desk, seen a little from below its
 * far edge, lit from above, casting a soft shadow, slightly out of focus; its text drawn from the
 * fonts the PDF embeds (readable by eye, to compare with the PDF), the QR code readable and no
 * text layer. What an applicant sends when they photograph the printout.
 */
export async function certificatePhoto(spec: CertificateSpec, format: PhotoFormat): Promise<Uint8Array> {
  validate(spec);
  const { fonts } = await newDocument(spec);
  const payload = qrText(spec);
  const modules = payload ? await qrModules(payload) : undefined;
  const { width, height, paper: sharp } = paperPixels(spec, fonts, modules);
  // A phone's lens and its focus: every point of the paper spread over its neighbours.
  const paper = blurred(sharp, width, height);

  const rgbData = new Uint8Array(PHOTO_WIDTH * PHOTO_HEIGHT * 3);
  const centreX = PHOTO_WIDTH / 2;
  const centreY = PHOTO_HEIGHT / 2;
  for (let y = 0; y < PHOTO_HEIGHT; y++) {
    // Light falls off towards the bottom; by rows only, which keeps the PNG small.
    const light = 1.04 - (0.14 * y) / PHOTO_HEIGHT;
    for (let x = 0; x < PHOTO_WIDTH; x++) {
      // Back from the photo to the paper: the inverse of the tilt, about the centres.
      const dx = x - centreX;
      const dy = y - centreY;
      const v = -TILT.sin * dx + TILT.cos * dy + height / 2;
      const across = 1 + PERSPECTIVE * (0.5 - v / height);
      const u = (TILT.cos * dx + TILT.sin * dy) * across + width / 2;
      const u0 = Math.floor(u);
      const v0 = Math.floor(v);
      const fu = u - u0;
      const fv = v - v0;
      // Bilinear: how much of the pixel falls off the paper (the desk), and the paper's share.
      let desk = 0;
      let lit = 0;
      for (let corner = 0; corner < 4; corner++) {
        const du = corner & 1;
        const dv = corner >> 1;
        const weight = (du ? fu : 1 - fu) * (dv ? fv : 1 - fv);
        const pu = u0 + du;
        const pv = v0 + dv;
        if (pu < 0 || pv < 0 || pu >= width || pv >= height) desk += weight;
        else lit += weight * (paper[pv * width + pu] ?? 255);
      }
      const at = (y * PHOTO_WIDTH + x) * 3;
      const shade = desk > 0 ? shadowOn(u - SHADOW.dx, v - SHADOW.dy, width, height) : 1;
      for (let channel = 0; channel < 3; channel++) {
        const value = desk * shade * (DESK[channel] ?? 0) + (lit * (PAPER_TINT[channel] ?? 0)) / 255;
        rgbData[at + channel] = Math.max(0, Math.min(255, Math.round(value * light)));
      }
    }
  }
  if (format === "png") return encodePng({ width: PHOTO_WIDTH, height: PHOTO_HEIGHT, channels: 3, data: rgbData });
  const rgba = Buffer.alloc(PHOTO_WIDTH * PHOTO_HEIGHT * 4, 255);
  for (let i = 0; i < PHOTO_WIDTH * PHOTO_HEIGHT; i++) {
    rgba[i * 4] = rgbData[i * 3] ?? 0;
    rgba[i * 4 + 1] = rgbData[i * 3 + 1] ?? 0;
    rgba[i * 4 + 2] = rgbData[i * 3 + 2] ?? 0;
  }
  return new Uint8Array(jpeg.encode({ data: rgba, width: PHOTO_WIDTH, height: PHOTO_HEIGHT }, 85).data);
}
