/**
 * The document reader inside its decode budget, each document opened in a fresh process so its
 * peak memory is its own: a PNG decompression bomb is refused before it is decoded, and the
 * process stays far below the function's 512 MB.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { jpegImage, pngBomb, pngImage } from "../support/documents.ts";

const FUNCTION_MEMORY_MIB = 512;
const folder = mkdtempSync(path.join(os.tmpdir(), "decode-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function openAlone(bytes: Uint8Array, fileType: "png" | "jpeg") {
  const file = path.join(folder, `${fileType}-${bytes.length}`);
  writeFileSync(file, bytes);
  const { stdout } = await promisify(execFile)(process.execPath, [
    "--import",
    "tsx",
    path.resolve(__dirname, "../support/decode-peak.ts"),
    file,
    fileType,
  ]);
  return JSON.parse(stdout) as { unreadable: string | null; peak_rss_mib: number };
}

describe("the document reader's decode budget", () => {
  it("refuses a 381 KB PNG that inflates to 392 MB (7000 x 7000, 16-bit RGBA) before decoding it", async () => {
    const bomb = await pngBomb();
    expect(bomb.length).toBeLessThan(400_000);

    const opened = await openAlone(bomb, "png");

    expect(opened.unreadable).toBe("The image needs more than 128 MiB to decode");
    expect(opened.peak_rss_mib).toBeLessThan(FUNCTION_MEMORY_MIB / 2);
    console.log(`decode budget: PNG bomb of ${bomb.length} bytes refused, peak RSS ${opened.peak_rss_mib} MiB`);
  });

  it("still opens a 12-megapixel PNG photo, within the budget", async () => {
    const png = await openAlone(await pngBomb(4000, 3000, 8), "png");

    expect(png.unreadable).toBeNull();
    expect(png.peak_rss_mib).toBeLessThan(FUNCTION_MEMORY_MIB);
  });

  it("opens the small images the pipeline tests use", async () => {
    expect((await openAlone(pngImage(), "png")).unreadable).toBeNull();
    expect((await openAlone(jpegImage(), "jpeg")).unreadable).toBeNull();
  });
});
