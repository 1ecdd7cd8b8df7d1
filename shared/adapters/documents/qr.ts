/**
 * QR codes, read by zxing-cpp compiled to WebAssembly (zxing-wasm's reader build). Its
 * binary is handed over from disk, never fetched: left to itself the library would download it
 * from a CDN. The library and the binary load on first use, so a function that never reads a
 * document does not pay for them at cold start.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ReaderOptions, ReadResult } from "zxing-wasm/reader";
import { QR_DECODER_MEMORY_BYTES } from "./budget.ts";

/**
 * The decoder's binary. The functions' bundles carry it as a file beside their code
 * (infra/bundling.ts copies it there); unbundled (tsx, the tests, the local runtime) it is
 * read from the package.
 */
export const QR_DECODER_WASM_FILE = "zxing_reader.wasm";
export const QR_DECODER_WASM_PACKAGE_PATH = "zxing-wasm/reader/zxing_reader.wasm";

/** Pixels as the decoder takes them: RGBA, 4 bytes a pixel, row after row. */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

const READER_OPTIONS: ReaderOptions = {
  formats: ["QRCode"],
  tryHarder: true,
  tryInvert: true,
  tryDownscale: true,
  // A certificate prints one QR code; a page of them is not worth the time.
  maxNumberOfSymbols: 8,
};

const WASM_PAGE = 64 * 1024;

function readLeb(bytes: Uint8Array, at: number): [value: number, length: number] {
  let value = 0;
  let length = 0;
  let byte: number;
  do {
    byte = bytes[at + length] ?? 0;
    value += (byte & 0x7f) * 2 ** (7 * length);
    length++;
  } while (byte & 0x80 && length < 5);
  return [value, length];
}

function leb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    out.push(byte);
  } while (rest > 0);
  return out;
}

/**
 * The module with the maximum of its memory lowered to `maxBytes`. The binary declares it may
 * grow to 2 GiB; with a lower maximum, an allocation past it fails inside the decoder (the
 * image is then unreadable) instead of taking the function's memory. The memory section holds
 * one memory: flags (1: a maximum follows), the minimum and the maximum, in 64 KiB pages.
 */
export function withMemoryMaximum(wasm: Uint8Array, maxBytes: number): Uint8Array {
  const unexpected = (what: string) => new Error(`The QR decoder's binary is not as expected: ${what}`);
  let at = 8; // the magic number and the version
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, sizeLength] = readLeb(wasm, at + 1);
    const start = at + 1 + sizeLength;
    if (id === 5) {
      let p = start;
      const [count, countLength] = readLeb(wasm, p);
      p += countLength;
      const [flags, flagsLength] = readLeb(wasm, p);
      p += flagsLength;
      const [minimum] = readLeb(wasm, p);
      const maximum = Math.floor(maxBytes / WASM_PAGE);
      if (count !== 1 || flags !== 1) throw unexpected("one bounded 32-bit memory");
      if (minimum > maximum) throw unexpected(`a minimum memory of ${minimum} pages`);
      const body = [...leb(1), ...leb(1), ...leb(minimum), ...leb(maximum)];
      const section = Uint8Array.from([5, ...leb(body.length), ...body]);
      const patched = new Uint8Array(at + section.length + (wasm.length - start - size));
      patched.set(wasm.subarray(0, at), 0);
      patched.set(section, at);
      patched.set(wasm.subarray(start + size), at + section.length);
      return patched;
    }
    at = start + size;
  }
  throw unexpected("a memory section");
}

function wasmBinary(): Uint8Array {
  const beside = path.join(__dirname, QR_DECODER_WASM_FILE);
  const file = existsSync(beside) ? beside : createRequire(__filename).resolve(QR_DECODER_WASM_PACKAGE_PATH);
  return readFileSync(file);
}

type Zxing = typeof import("zxing-wasm/reader");

/** The part of the WebAssembly API used here (the project's TypeScript libraries do not declare it). */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<object>;
  Instance: new (module: object, imports: object) => { exports: object };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

let loading: Promise<{ zxing: Zxing; overrides: { instantiateWasm: unknown } }> | undefined;

/**
 * The library and the compiled binary, once per thread. Each read then instantiates the
 * compiled module afresh (a few milliseconds): the memory a large photo made the decoder grow
 * is released with the instance, and nothing one file did to the decoder's heap is left for
 * the next.
 */
function load() {
  loading ??= (async () => {
    const [zxing, module] = await Promise.all([
      import("zxing-wasm/reader"),
      wasm.compile(withMemoryMaximum(wasmBinary(), QR_DECODER_MEMORY_BYTES)),
    ]);
    const overrides = {
      // Emscripten's hook for supplying the instance: synchronous, so a failure rejects the
      // library's own promise instead of leaving it pending.
      instantiateWasm(imports: object, receive: (instance: object, module: object) => void) {
        const instance = new wasm.Instance(module, imports);
        receive(instance, module);
        return instance.exports;
      },
    };
    return { zxing, overrides };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

let sessions = 0;

/** One read's use of the decoder; `close` it when the read is done. */
export interface QrSession {
  /** The QR codes in an encoded PNG or JPEG; undefined when the image cannot be decoded. */
  inEncodedImage(bytes: Uint8Array): Promise<string[] | undefined>;
  /** The QR codes in decoded pixels. */
  inPixels(pixels: Pixels): Promise<string[]>;
  close(): void;
}

export interface QrDecoder {
  session(): QrSession;
}

/** The decoder, loaded on first use; a failure to load is the function's, not the document's, and is thrown. */
export async function loadQrDecoder(): Promise<QrDecoder> {
  const { zxing, overrides } = await load();

  const read = async (input: Uint8Array | Pixels): Promise<ReadResult[]> => {
    // The library keeps one module per process and falls back to its CDN when none is
    // prepared: prepared before every call, synchronously, so no other read can purge it between.
    zxing.prepareZXingModule({ overrides: overrides as never });
    try {
      return await zxing.readBarcodes(input as never, READER_OPTIONS);
    } catch (error) {
      // The decoder aborted (out of its memory, say): it is unusable, the next call gets a new one.
      zxing.purgeZXingModule();
      throw error;
    }
  };
  const texts = (results: ReadResult[]) => [...new Set(results.filter((r) => r.isValid).map((r) => r.text))];

  return {
    session() {
      sessions++;
      let open = true;
      return {
        async inEncodedImage(bytes) {
          const results = await read(bytes);
          // An image the decoder cannot load comes back as one result with an error and no format.
          if (results.some((r) => !r.isValid && !r.format)) return undefined;
          return texts(results);
        },
        async inPixels(pixels) {
          return texts(await read(pixels));
        },
        close() {
          if (!open) return;
          open = false;
          sessions--;
          if (sessions === 0) zxing.purgeZXingModule();
        },
      };
    },
  };
}
