/**
 * The document reader on real documents built here: a certificate's text layer (Turkish, runs
 * split or in columns, drawn in any order), QR codes in a PDF's images (PNG, JPEG, transparent,
 * a 1-bit mask, turned and scaled) and in photos, what it refuses, and its budgets. A budget is
 * measured with the document read in a process of its own (test/support/decode-peak.ts), so the
 * peak memory printed is that document's.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { READ_MEMORY_BUDGET_BYTES } from "#shared/adapters/documents/budget";
import { documentReader, libraryDocumentReader } from "#shared/adapters/documents/reader";
import { detailSentence } from "#shared/domain/check-details";
import type { FileType } from "#shared/domain/document-types";
import type { DocumentContent, ReadResult } from "#shared/ports/document-reader";
import type { DecodePeak } from "../support/decode-peak.ts";
import {
  brokenPdf,
  contentBombPdf,
  corruptPng,
  denseTextPdf,
  encodeJpeg,
  encodePng,
  encryptedPdf,
  imagesPdf,
  jpegClaiming,
  noPagesPdf,
  photoAlbumPdf,
  pngBomb,
  pngInflatingPast,
  qrImage,
  qrModules,
  qrPhoto,
  raster,
  textPdf,
} from "../support/documents.ts";

const FUNCTION_MEMORY_MIB = 512;
const MiB = 1024 * 1024;
const link = (barcode: string) => `https://www.turkiye.gov.tr/belge-dogrulama?barkod=${barcode}&tckn=10000000146`;

const folder = mkdtempSync(path.join(os.tmpdir(), "decode-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Reads `bytes` in a fresh `node` process and returns what it read, its time and its peak memory. */
async function readAlone(bytes: Uint8Array, fileType: FileType, name: string): Promise<DecodePeak> {
  const file = path.join(folder, `${name}.${fileType}`);
  writeFileSync(file, bytes);
  const { stdout } = await promisify(execFile)(process.execPath, [
    "--import",
    "tsx",
    path.resolve(__dirname, "../support/decode-peak.ts"),
    file,
    fileType,
  ]);
  const measured = JSON.parse(stdout) as DecodePeak;
  console.log(
    `${name}: ${bytes.length} bytes, ${measured.unreadable ?? "read"}, ${measured.read_ms} ms, ` +
      `RSS ${measured.rss_before_mib} MiB before, peak ${measured.peak_rss_mib} MiB`,
  );
  return measured;
}

async function content(fileType: FileType, bytes: Uint8Array): Promise<DocumentContent> {
  const read = await libraryDocumentReader.read(fileType, bytes);
  if (!read.readable) throw new Error(`unreadable: ${read.reason.code}`);
  return read.content;
}

/** Why `read` was refused, in the sentence the check's detail gives it. */
const reason = (read: ReadResult) => (read.readable ? undefined : detailSentence(read.reason.code, read.reason.params));

describe("a PDF's text layer", () => {
  it("is read as lines top to bottom, each line's runs left to right, in Turkish", async () => {
    // Drawn bottom line first and right column first, as generators do not draw in reading order.
    const pdf = await textPdf([
      {
        runs: [
          { text: "Öğrencilik Durumu", x: 50, y: 600 },
          { text: ": Aktif Öğrenci", x: 200, y: 600 },
          { text: ": İSMAİL ŞÜKRÜ ÇAĞLAYAN", x: 200, y: 640 },
          { text: "Adı Soyadı", x: 50, y: 640 },
          { text: "YÜKSEKÖĞRETİM KURULU BAŞKANLIĞI", x: 150, y: 780, size: 14 },
          { text: "Doğum Tarihi", x: 50, y: 620 },
          { text: ": 14.03.2004", x: 200, y: 620 },
        ],
      },
    ]);

    expect((await content("pdf", pdf)).lines).toEqual([
      "YÜKSEKÖĞRETİM KURULU BAŞKANLIĞI",
      "Adı Soyadı : İSMAİL ŞÜKRÜ ÇAĞLAYAN",
      "Doğum Tarihi : 14.03.2004",
      "Öğrencilik Durumu : Aktif Öğrenci",
    ]);
  });

  it("joins runs that touch with nothing between them, and runs apart with one space", async () => {
    const pdf = await textPdf([
      {
        runs: [
          // A value split into three runs that touch: it must come out whole.
          { text: "Barkod No :", x: 50, y: 700 },
          { text: "TESTYOK-", x: 120, y: 700 },
          { text: "0001-", x: 0, y: 700, follows: true },
          { text: "AKT", x: 0, y: 700, follows: true },
          { text: "IF", x: 0, y: 700, follows: true },
          // Two words as two runs, 4 points apart; and a run that brings its own space.
          { text: "Kayıt", x: 50, y: 680 },
          { text: "Tarihi", x: 4, y: 680, follows: true },
          { text: ":  ", x: 4, y: 680, follows: true },
          { text: "12.09.2022", x: 0, y: 680, follows: true },
        ],
      },
    ]);

    expect((await content("pdf", pdf)).lines).toEqual(["Barkod No : TESTYOK-0001-AKTIF", "Kayıt Tarihi : 12.09.2022"]);
  });

  it("keeps two columns on one baseline in one line, a baseline off by a fraction with it, and pages in order, with the lines of each page counted", async () => {
    const pdf = await textPdf([
      {
        runs: [
          { text: "Baba Adı : HÜSEYİN", x: 50, y: 700 },
          { text: "Anne Adı : GÜLŞEN", x: 320, y: 700.8 },
          { text: "Uyruğu : T.C.", x: 50, y: 686 },
          { text: "İl : ESKİŞEHİR", x: 320, y: 686 },
        ],
      },
      { runs: [{ text: "Sayfa 2", x: 50, y: 800 }] },
    ]);

    const read = await content("pdf", pdf);
    expect(read.lines).toEqual(["Baba Adı : HÜSEYİN Anne Adı : GÜLŞEN", "Uyruğu : T.C. İl : ESKİŞEHİR", "Sayfa 2"]);
    // Which lines each page holds, so two copies are compared page by page.
    expect(read.linesPerPage).toEqual([2, 1]);
  });
});

describe("QR codes in a PDF's images", () => {
  it("are read from PNG and JPEG images, a transparent one, a 1-bit mask, turned and scaled, each once", async () => {
    const png = encodePng(await qrImage(link("TESTYOK-0001-PNG"), 4));
    // Dark modules on a transparent ground: pdf.js hands it over as RGBA, shown over the white page.
    const clear = await qrImage(link("TESTYOK-0002-ALFA"), 3);
    // Black where transparent too: read without the page behind it, the code would be all black.
    for (let i = 0; i < clear.data.length; i += 4) {
      const dark = (clear.data[i] ?? 0) < 128;
      clear.data.fill(dark ? 20 : 0, i, i + 3);
      clear.data[i + 3] = dark ? 255 : 0;
    }
    const pdf = await textPdf([
      {
        runs: [{ text: "Öğrenci Belgesi", x: 50, y: 780 }],
        images: [
          { png, x: 400, y: 640, width: 60, height: 60, rotate: 30 },
          { png, x: 400, y: 540, width: 90, height: 90 },
          { jpeg: encodeJpeg(await qrImage(link("TESTYOK-0003-JPEG"), 6), 90), x: 50, y: 300, width: 150, height: 150 },
          { png: encodePng(clear, 6), x: 250, y: 300, width: 100, height: 100, rotate: -90 },
        ],
        masks: [{ qr: await qrModules(link("TESTYOK-0004-MASKE")), x: 50, y: 100, side: 120 }],
      },
    ]);

    const read = await content("pdf", pdf);

    expect(read.qrCodes.toSorted()).toEqual(
      ["TESTYOK-0001-PNG", "TESTYOK-0002-ALFA", "TESTYOK-0003-JPEG", "TESTYOK-0004-MASKE"].map(link),
    );
    expect(read.lines).toEqual(["Öğrenci Belgesi"]);
  });

  it("finds none where the images hold none", async () => {
    const pdf = await textPdf([
      { images: [{ png: encodePng(raster(300, 200, (x) => x % 256)), x: 50, y: 50, width: 300, height: 200 }] },
    ]);

    expect(await content("pdf", pdf)).toEqual({ lines: [], linesPerPage: [0], qrCodes: [] });
  });
});

describe("PDFs it refuses", () => {
  it.each([
    ["an encrypted PDF", encryptedPdf, "The PDF is encrypted"],
    ["a PDF that does not parse", async () => brokenPdf(), "The PDF could not be read"],
    ["a PDF without pages", noPagesPdf, "The PDF has no pages"],
    [
      "a PDF of 11 pages",
      () => textPdf(Array.from({ length: 11 }, (_, i) => ({ runs: [{ text: `Sayfa ${i + 1}`, x: 50, y: 700 }] }))),
      "The PDF has more than 10 pages",
    ],
  ])("%s", async (_, make, expected) => {
    expect(reason(await libraryDocumentReader.read("pdf", await make()))).toBe(expected);
  });

  it("reads 10 pages, and leaves the caller's bytes as they were", async () => {
    const pdf = await textPdf(
      Array.from({ length: 10 }, (_, i) => ({ runs: [{ text: `Sayfa ${i + 1}`, x: 50, y: 700 }] })),
    );
    const digest = createHash("sha256").update(pdf).digest("hex");

    expect((await content("pdf", pdf)).lines).toHaveLength(10);
    expect(createHash("sha256").update(pdf).digest("hex")).toBe(digest);
  });
});

describe("photos", () => {
  it("are read for their QR code, turned in the picture, as PNG and as JPEG, with no text layer", async () => {
    const photo = await qrPhoto({ width: 1600, height: 1200, text: link("TESTYOK-0005-FOTO"), angle: 0.4, cell: 7 });

    expect(await content("png", encodePng(photo))).toEqual({
      lines: [],
      linesPerPage: [],
      qrCodes: [link("TESTYOK-0005-FOTO")],
    });
    expect(await content("jpeg", encodeJpeg(photo, 85))).toEqual({
      lines: [],
      linesPerPage: [],
      qrCodes: [link("TESTYOK-0005-FOTO")],
    });
  });

  it("without a QR code are still readable", async () => {
    expect(await content("jpeg", encodeJpeg(await qrPhoto({ width: 800, height: 600 })))).toEqual({
      lines: [],
      linesPerPage: [],
      qrCodes: [],
    });
  });

  it("that do not decode are unreadable", async () => {
    expect(reason(await libraryDocumentReader.read("png", corruptPng()))).toBe("The PNG could not be read");
    const truncated = encodeJpeg(await qrPhoto({ width: 400, height: 300 })).subarray(0, 600);
    expect(reason(await libraryDocumentReader.read("jpeg", truncated))).toBe("The JPEG could not be read");
  });
});

describe("the budgets, each document read in a process of its own", () => {
  const half = FUNCTION_MEMORY_MIB / 2;

  it("refuses a 381 KB PNG that inflates to 392 MB (7000 x 7000, 16-bit RGBA) from its header", async () => {
    const bomb = await pngBomb();
    expect(bomb.length).toBeLessThan(400_000);

    const read = await readAlone(bomb, "png", "png-bomb-16bit-7000");

    expect(read.unreadable).toBe("The image (7000 x 7000) needs more than 160 MiB to decode");
    expect(read.peak_rss_mib).toBeLessThan(half);
  });

  it("refuses a JPEG whose header claims 7000 x 7000 from its header", async () => {
    const read = await readAlone(jpegClaiming(7000, 7000), "jpeg", "jpeg-header-7000");

    expect(read.unreadable).toBe("The image (7000 x 7000) needs more than 160 MiB to decode");
    expect(read.peak_rss_mib).toBeLessThan(half);
  });

  it("stops a PNG whose rows inflate to 512 MB past its 64 x 64 header inside the decoder's memory", async () => {
    const read = await readAlone(await pngInflatingPast(512 * MiB), "png", "png-inflating-past-header");

    expect(read.unreadable).toBe("The PNG could not be read");
    expect(read.peak_rss_mib).toBeLessThan(FUNCTION_MEMORY_MIB * 0.75);
  });

  it("reads a 12-megapixel phone photo (JPEG) and a 12-megapixel RGBA PNG", { timeout: 60_000 }, async () => {
    const photo = encodeJpeg(
      await qrPhoto({ width: 4000, height: 3000, text: link("TESTYOK-0006-12MP"), cell: 14 }),
      90,
    );

    const jpeg = await readAlone(photo, "jpeg", "photo-12mp-jpeg");
    const png = await readAlone(await pngBomb(4000, 3000, 8), "png", "photo-12mp-rgba-png");

    expect(jpeg.unreadable).toBeNull();
    expect(jpeg.qr_codes).toEqual([link("TESTYOK-0006-12MP")]);
    expect(jpeg.peak_rss_mib).toBeLessThan(half);
    expect(png.unreadable).toBeNull();
    expect(png.peak_rss_mib).toBeLessThan(half);
  });

  it("refuses a 1,000-page PDF from its page count, without reading its pages", async () => {
    const pages = Array.from({ length: 1000 }, (_, i) => ({ runs: [{ text: `Sayfa ${i + 1}`, x: 50, y: 700 }] }));
    const read = await readAlone(await textPdf(pages), "pdf", "pdf-1000-pages");

    expect(read.unreadable).toBe("The PDF has more than 10 pages");
    expect(read.peak_rss_mib).toBeLessThan(half);
  });

  it("skips, undecoded, a 7000 x 7000 image in a PDF", async () => {
    const read = await readAlone(await imagesPdf(1, 7000), "pdf", "pdf-image-7000");

    expect(read.unreadable).toBeNull();
    expect(read.peak_rss_mib).toBeLessThan(half);
  });

  it.each([
    ["a PDF painting forty 4-megapixel images (475 KB)", () => imagesPdf(40, 2000), "pdf-images-40x4mp"],
    ["a PDF whose page content inflates to 300 MB (300 KB)", () => contentBombPdf(300), "pdf-content-300mb"],
  ])("stops the read of %s at its memory budget", { timeout: 60_000 }, async (_, make, name) => {
    const read = await readAlone(await make(), "pdf", name);

    expect(read.unreadable).toBe(
      `The document needs more than ${READ_MEMORY_BUDGET_BYTES / MiB} MiB of memory to read`,
    );
    expect(read.peak_rss_mib).toBeLessThan(FUNCTION_MEMORY_MIB * 0.8);
  });

  it("reads a 10 MiB PDF of photos with its certificate page", { timeout: 60_000 }, async () => {
    const pdf = await photoAlbumPdf(10 * MiB, link("TESTYOK-0007-ALBUM"));
    expect(pdf.length).toBeGreaterThan(9.5 * MiB);

    const read = await readAlone(pdf, "pdf", "pdf-10mib-photos");

    expect(read.unreadable).toBeNull();
    expect(read.qr_codes).toEqual([link("TESTYOK-0007-ALBUM")]);
    expect(read.lines).toContain("Barkod No : TESTYOK-0001-AKTIF");
    expect(read.peak_rss_mib).toBeLessThan(FUNCTION_MEMORY_MIB * 0.6);
  });
});

describe("the time budget", () => {
  // Memory is left out of these: only the time is under test.
  const limits = { timeMs: 2_500, memoryBytes: 1024 * MiB };

  it("stops a read that takes longer, and the next read gets a new thread", { timeout: 30_000 }, async () => {
    // 150,000 text objects in 25 KB: about 4 s of pdf.js's time, in one stretch.
    const dense = await denseTextPdf(150_000);
    const reader = documentReader(limits);
    const started = performance.now();

    expect(reason(await reader.read("pdf", dense))).toBe("The document takes more than 2.5 s to read");
    expect(performance.now() - started).toBeLessThan(limits.timeMs + 1_000);
    const next = await reader.read("pdf", await textPdf([{ runs: [{ text: "Sonraki", x: 50, y: 700 }] }]));
    expect(next).toEqual({ readable: true, content: { lines: ["Sonraki"], linesPerPage: [1], qrCodes: [] } });
  });

  it("lets a slow document through within the functions' budget", { timeout: 30_000 }, async () => {
    // 50,000 text objects: more than a second.
    expect((await content("pdf", await denseTextPdf(50_000))).lines).toHaveLength(1);
  });
});
