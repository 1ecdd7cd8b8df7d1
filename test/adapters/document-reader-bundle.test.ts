/**
 * The document reader bundled as the stack bundles a function (esbuild with `BUNDLING`, then the
 * files its bundling hook adds beside the bundle), run by `node` with the functions' flags, in a
 * process where any network fetch throws: a PDF's lines and QR code, a photo's QR code, and the
 * first read of a 10 MiB PDF, timed.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READER_THREAD_FILE } from "#shared/adapters/documents/reader";
import type { FileType } from "#shared/domain/document-types";
import type { ReadResult } from "#shared/ports/document-reader";
import { documentReaderFiles, PROJECT_ROOT } from "../../infra/bundling.ts";
import { esbuildOptions } from "../../infra/esbuild-options.ts";
import { encodeJpeg, encodePng, photoAlbumPdf, qrImage, qrPhoto, textPdf } from "../support/documents.ts";

const MiB = 1024 * 1024;
const link = (barcode: string) => `https://www.turkiye.gov.tr/belge-dogrulama?barkod=${barcode}&tckn=10000000146`;

/** A function's entry reduced to the reader: reads the file it is given and prints what it read. */
const ENTRY = `
const { readFileSync } = require("node:fs");
const { libraryDocumentReader } = require("#shared/adapters/documents/reader");
const [file, fileType] = process.argv.slice(2);
const started = performance.now();
libraryDocumentReader.read(fileType, readFileSync(file)).then((read) => {
  const peak = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ read, ms: Math.round(performance.now() - started), peak: Math.round(peak) }));
});
`;

const folder = mkdtempSync(path.join(os.tmpdir(), "reader-bundle-"));
const bundle = path.join(folder, "bundle");
let inputs: string[] = [];
afterAll(() => rmSync(folder, { recursive: true, force: true }));

beforeAll(async () => {
  const built = await build({
    ...esbuildOptions(),
    metafile: true,
    stdin: { contents: ENTRY, resolveDir: PROJECT_ROOT, loader: "js", sourcefile: "entry.js" },
    outfile: path.join(bundle, "index.js"),
  });
  inputs = Object.keys(built.metafile?.inputs ?? {});
  for (const command of documentReaderFiles(PROJECT_ROOT, bundle)) execFileSync("bash", ["-c", command]);
  writeFileSync(
    path.join(folder, "no-network.cjs"),
    'globalThis.fetch = () => { throw new Error("fetch called"); };\n',
  );
}, 60_000);

const kb = (file: string) => Math.round(statSync(path.join(bundle, file)).size / 1024);

/** Runs the bundle in a fresh `node` as Lambda does (source maps on), with fetch throwing in every thread. */
async function run(bytes: Uint8Array, fileType: FileType, name: string) {
  const file = path.join(folder, `${name}.${fileType}`);
  writeFileSync(file, bytes);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--enable-source-maps",
      "--require",
      path.join(folder, "no-network.cjs"),
      path.join(bundle, "index.js"),
      file,
      fileType,
    ],
    { env: { PATH: process.env.PATH } },
  );
  const ran = JSON.parse(stdout) as { read: ReadResult; ms: number; peak: number };
  console.log(`bundled, ${name}: first read ${ran.ms} ms, peak RSS ${ran.peak} MiB`);
  return ran;
}

describe("the reader in a function's bundle", () => {
  it("is a small bundle whose thread, built beside it, holds pdf.js and its parser, without the canvas package", () => {
    console.log(
      `bundle sizes: index.js ${kb("index.js")} KB (the reader's side in the function), ` +
        `${READER_THREAD_FILE} ${kb(READER_THREAD_FILE)} KB, zxing_reader.wasm ${kb("zxing_reader.wasm")} KB`,
    );
    expect(inputs.some((input) => input.includes("pdfjs-dist"))).toBe(false);
    const thread = readFileSync(path.join(bundle, READER_THREAD_FILE), "utf8");
    expect(thread).toContain("WorkerMessageHandler");
    // pdf.js asks for @napi-rs/canvas at run time, by name; the package's loader (which names its
    // native builds) is not in the bundle.
    expect(thread).toContain('"@napi-rs/canvas"');
    expect(thread).not.toContain("canvas-linux-x64-gnu");
    expect(kb("index.js")).toBeLessThan(50);
  });

  it("reads a PDF's lines and the QR code in its image, and a photo's QR code", { timeout: 60_000 }, async () => {
    const pdf = await textPdf([
      {
        runs: [
          { text: "Adı Soyadı : AYŞE DENEME", x: 50, y: 700 },
          { text: "Barkod No : TESTYOK-", x: 50, y: 680 },
          { text: "0001-AKTIF", x: 0, y: 680, follows: true },
        ],
        images: [
          { png: encodePng(await qrImage(link("TESTYOK-0001-AKTIF"))), x: 400, y: 600, width: 120, height: 120 },
        ],
      },
    ]);
    const photo = encodeJpeg(await qrPhoto({ width: 1200, height: 900, text: link("TESTYOK-0001-AKTIF"), cell: 6 }));

    const fromPdf = await run(pdf, "pdf", "certificate");
    const fromPhoto = await run(photo, "jpeg", "photo");

    expect(fromPdf.read).toEqual({
      readable: true,
      content: {
        lines: ["Adı Soyadı : AYŞE DENEME", "Barkod No : TESTYOK-0001-AKTIF"],
        linesPerPage: [2],
        qrCodes: [link("TESTYOK-0001-AKTIF")],
      },
    });
    expect(fromPhoto.read).toEqual({
      readable: true,
      content: { lines: [], linesPerPage: [], qrCodes: [link("TESTYOK-0001-AKTIF")] },
    });
  });

  it("reads a 10 MiB PDF at its first read", { timeout: 60_000 }, async () => {
    const pdf = await photoAlbumPdf(10 * MiB, link("TESTYOK-0007-ALBUM"));

    const { read } = await run(pdf, "pdf", "10-mib-pdf");

    expect(read.readable && read.content.qrCodes).toEqual([link("TESTYOK-0007-ALBUM")]);
  });
});
