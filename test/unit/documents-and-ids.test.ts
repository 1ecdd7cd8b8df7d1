import { describe, expect, it } from "vitest";
import {
  acceptsFileType,
  allowedExtensions,
  fileTypeOfName,
  MAX_FILE_SIZE_BYTES,
  SNIFF_BYTES,
  sniffFileType,
} from "#shared/domain/document-types";
import { isId, newId } from "#shared/domain/ids";

describe("the document-type registry", () => {
  it("registers YOK_STUDENT with pdf, jpg, jpeg and png up to 10 MiB", () => {
    expect(allowedExtensions("YOK_STUDENT").sort()).toEqual([".jpeg", ".jpg", ".pdf", ".png"]);
    expect(MAX_FILE_SIZE_BYTES).toBe(10_485_760);
    expect(acceptsFileType("YOK_STUDENT", "png")).toBe(true);
  });

  it("recognises a file by its first bytes, not by its name", () => {
    expect(sniffFileType(Uint8Array.from(Buffer.from("%PDF-1.7\n")))).toBe("pdf");
    expect(sniffFileType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(sniffFileType(Uint8Array.from([0xff, 0xd8, 0xff, 0xdb]))).toBe("jpeg");
    expect(sniffFileType(Uint8Array.from(Buffer.from("%PDX-")))).toBeUndefined();
    expect(sniffFileType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(sniffFileType(new Uint8Array())).toBeUndefined();
    expect(SNIFF_BYTES).toBe(8);
  });

  it("reads the file type of a name from its last extension", () => {
    expect(fileTypeOfName("a.tar.PDF")).toBe("pdf");
    expect(fileTypeOfName("photo.JpEg")).toBe("jpeg");
    expect(fileTypeOfName("pdf")).toBeUndefined();
    expect(fileTypeOfName("a.pdf.exe")).toBeUndefined();
  });
});

describe("ids", () => {
  it("are the prefix and a 26-character upper-case ULID", () => {
    const id = newId("verification");
    expect(id).toMatch(/^ver_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId("verification", id)).toBe(true);
    expect(isId("app", id)).toBe(false);
    expect(isId("verification", id.toLowerCase())).toBe(false);
    expect(newId("event")).toMatch(/^evt_/);
    expect(newId("app")).toMatch(/^app_/);
  });

  it("sort by creation time", () => {
    const first = newId("verification");
    const later = Array.from({ length: 5 }, () => newId("verification"));
    expect(later.every((id) => id.slice(4, 14) >= first.slice(4, 14))).toBe(true);
  });
});
