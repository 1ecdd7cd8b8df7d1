/**
 * What one read may cost. A document is up to 10 MiB that an anonymous client chose, and the
 * function that reads it has 512 MB and a timeout; every limit here keeps a hostile file from
 * spending either. The numbers come from measurements: test/adapters/document-reader.test.ts
 * reads each kind of document in a process of its own (test/support/decode-peak.ts) and prints
 * the time and the peak resident memory.
 */

import type { DetailParams, UnreadableCode, UnreadableReason } from "../../domain/check-details.ts";

/**
 * A mebibyte. The domain has the same constant, but importing it would bring the domain's
 * schema library into the reader's thread, which needs none of it.
 */
export const MiB = 1024 * 1024;

/**
 * The whole read, from handing the document over to the answer, the reader's first start
 * included. The slowest honest documents measured (on two cores of a development machine): a
 * 10 MiB PDF of photos 2.4 s, a 12-megapixel photo 0.65 s; a function with 512 MB gets about a
 * third of a vCPU, so about three times that. The processing functions have 29 s (a sync
 * confirm, which also asks the issuer) and 120 s; the authority service (5 s) reads only its own
 * small certificates, in about 50 ms once its reader has started.
 */
export const READ_TIME_BUDGET_MS = 10_000;

/**
 * How far the process's resident memory may grow while a document is read, over what it was
 * when the read began. pdf.js keeps everything it decodes and has no limit of its own: a 300 KB
 * PDF whose page content inflates to 300 MB, or a 475 KB one painting forty 4-megapixel images,
 * would take the function past 512 MB (980 MB measured). Stopped here, they peak at the
 * process's size before the read plus about 260 MiB. The honest documents measured grow it by
 * at most 180 MiB (a 10 MiB PDF of photos; a 12-megapixel photo 90 to 110 MiB).
 */
export const READ_MEMORY_BUDGET_BYTES = 256 * MiB;

/** How often the reader's memory is looked at while it works. */
export const MEMORY_CHECK_INTERVAL_MS = 10;

/**
 * The JavaScript heap of the reader's thread, a second limit that V8 itself enforces: past it
 * the thread stops at once with an out-of-memory error, which reads as over the memory budget.
 */
export const READER_HEAP_MIB = 192;

/** A certificate is one or two pages; more than this is not a certificate, and costs time. */
export const MAX_PDF_PAGES = 10;

/**
 * Pixels in one image inside a PDF. pdf.js turns an image into RGBA before handing it over,
 * 4 bytes a pixel, and the QR reader takes another copy: 4 megapixels is 16 MiB each, and a QR
 * code printed on a certificate is a few hundred pixels wide. pdf.js checks the image's
 * dictionary and skips a larger image without decoding it.
 */
export const MAX_PDF_IMAGE_PIXELS = 4_000_000;

/**
 * The QR decoder's working memory for one photo, estimated from the image's header before
 * anything is decoded (`decodeCost` in images.ts). Estimates: a 12-megapixel JPEG 62 MiB
 * (132 MiB progressive), a 12-megapixel 8-bit RGBA PNG 126 MiB, a 24-megapixel JPEG 125 MiB;
 * refused: a 48-megapixel JPEG (240 MiB), a JPEG claiming 7000 x 7000 (235 MiB), a 16-bit
 * 7000 x 7000 PNG (936 MiB). Read alone, a 12-megapixel photo peaks the process at about
 * 175 MiB (JPEG) and 190 MiB (PNG).
 */
export const PHOTO_DECODE_BUDGET_BYTES = 160 * MiB;

/**
 * The most memory the QR decoder (WebAssembly) may ever hold, enforced by the WebAssembly
 * engine, whatever a file's header claims: a PNG whose compressed rows inflate to more than
 * its header says fails inside this and the photo is unreadable. The largest photo measured
 * inside the decode budget needs 121 MiB.
 */
export const QR_DECODER_MEMORY_BYTES = 192 * MiB;

/** Why a document cannot be read: the reason the verification reports (its code the message). */
export class Unreadable extends Error {
  override readonly name = "Unreadable";
  readonly reason: UnreadableReason;

  constructor(code: UnreadableCode, params: DetailParams = {}) {
    super(code);
    this.reason = { code, params };
  }
}
