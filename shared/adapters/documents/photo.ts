/**
 * Photos (PNG, JPEG): no text layer, only the QR codes in the picture, which zxing-cpp decodes
 * itself (its image loader, asked for greyscale, inside its own memory).
 */
import type { DocumentContent } from "../../ports/document-reader.ts";
import { Unreadable } from "./budget.ts";
import { photoHeader } from "./images.ts";
import { loadQrDecoder } from "./qr.ts";

/**
 * The photo's QR codes (none is still a readable photo); `Unreadable` when it is over the
 * decode budget or does not decode.
 */
export async function readPhoto(fileType: "png" | "jpeg", bytes: Uint8Array): Promise<DocumentContent> {
  photoHeader(fileType, bytes);
  const decoder = await loadQrDecoder();
  const session = decoder.session();
  try {
    const codes = await session.inEncodedImage(bytes).catch(() => undefined);
    if (!codes) throw new Unreadable("image_unreadable", { file_type: fileType.toUpperCase() });
    return { lines: [], linesPerPage: [], qrCodes: codes };
  } finally {
    session.close();
  }
}
