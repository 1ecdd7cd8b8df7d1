/**
 * Password protection for the "unreadable" test document: the PDF standard security handler,
 * revision 2 (RC4 with a 40-bit key, PDF 1.4's and every reader's baseline). With a user
 * password set, no reader shows a single character without it, so the verification cannot
 * read the document, as the decision table's `document_unreadable` row needs. The file is
 * derived from the certificate's own bytes, so it is as reproducible as they are.
 */
import { createHash } from "node:crypto";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFString,
} from "pdf-lib";

/** The padding string of the standard security handler (ISO 32000-1, 7.6.3.3). */
const PADDING = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00,
  0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

/** Every permission granted: the point is the password, not the restrictions. */
const PERMISSIONS = -4;

function md5(...parts: Uint8Array[]): Uint8Array {
  const digest = createHash("md5");
  for (const part of parts) digest.update(part);
  return new Uint8Array(digest.digest());
}

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Uint8Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + (s[i] ?? 0) + (key[i % key.length] ?? 0)) & 0xff;
    [s[i], s[j]] = [s[j] ?? 0, s[i] ?? 0];
  }
  const out = new Uint8Array(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + (s[i] ?? 0)) & 0xff;
    [s[i], s[j]] = [s[j] ?? 0, s[i] ?? 0];
    out[n] = (data[n] ?? 0) ^ (s[((s[i] ?? 0) + (s[j] ?? 0)) & 0xff] ?? 0);
  }
  return out;
}

function padded(password: string): Uint8Array {
  const bytes = Buffer.from(password, "latin1").subarray(0, 32);
  const out = new Uint8Array(32);
  out.set(bytes);
  out.set(PADDING.subarray(0, 32 - bytes.length), bytes.length);
  return out;
}

function littleEndian(value: number, bytes: number): Uint8Array {
  return Uint8Array.from({ length: bytes }, (_, i) => (value >>> (8 * i)) & 0xff);
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The object's strings and stream data encrypted with its key; other objects unchanged. */
function encryptObject(object: PDFObject, key: Uint8Array): PDFObject {
  if (object instanceof PDFString || object instanceof PDFHexString) {
    return PDFHexString.of(hex(rc4(key, object.asBytes())));
  }
  if (object instanceof PDFArray) {
    for (let i = 0; i < object.size(); i++) object.set(i, encryptObject(object.get(i), key));
    return object;
  }
  if (object instanceof PDFRawStream) {
    encryptObject(object.dict, key);
    return PDFRawStream.of(object.dict, rc4(key, object.getContents()));
  }
  if (object instanceof PDFDict) {
    for (const [name, value] of object.entries()) object.set(name, encryptObject(value, key));
    return object;
  }
  return object;
}

/** The PDF, encrypted so that it opens only with `userPassword`. */
export async function encryptPdf(bytes: Uint8Array, passwords: { user: string; owner: string }): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const context = document.context;
  // The file identifier takes part in the key; derived from the content, it keeps output fixed.
  const id = md5(bytes);
  const owner = rc4(md5(padded(passwords.owner)).subarray(0, 5), padded(passwords.user));
  const key = md5(padded(passwords.user), owner, littleEndian(PERMISSIONS, 4), id).subarray(0, 5);
  const user = rc4(key, PADDING);

  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const objectKey = md5(key, littleEndian(ref.objectNumber, 3), littleEndian(ref.generationNumber, 2)).subarray(
      0,
      10,
    );
    context.assign(ref, encryptObject(object, objectKey));
  }
  // A direct dictionary in the trailer: its own strings are never encrypted.
  context.trailerInfo.Encrypt = context.obj({
    Filter: PDFName.of("Standard"),
    V: PDFNumber.of(1),
    R: PDFNumber.of(2),
    O: PDFHexString.of(hex(owner)),
    U: PDFHexString.of(hex(user)),
    P: PDFNumber.of(PERMISSIONS),
  });
  context.trailerInfo.ID = context.obj([PDFHexString.of(hex(id)), PDFHexString.of(hex(id))]);
  return document.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}
