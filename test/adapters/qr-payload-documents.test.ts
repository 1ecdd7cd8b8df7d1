/**
 * The document reader and the key reader together on certificates that carry their keys only in
 * their QR code, as e-Devlet's own verification app reads it
 * (`barkodlubelgedogrulama://barkod: <barcode>;tckn:<T.C. number>`): a QR-only PDF, photos of it,
 * and a PDF whose payload lacks the scheme and ends with a transcript's link.
 */
import { describe, expect, it } from "vitest";
import { libraryDocumentReader } from "#shared/adapters/documents/reader";
import { documentKeys } from "#shared/domain/certificates/keys";
import type { FileType } from "#shared/domain/document-types";
import type { DocumentContent } from "#shared/ports/document-reader";
import {
  type CertificateSpec,
  certificatePdf,
  certificatePhoto,
  syntheticIdentityNumber,
} from "../../scripts/test-documents/certificate.ts";

/** An invented student whose certificate prints neither key on its text layer. */
const QR_ONLY: CertificateSpec = {
  documentType: "YOK_STUDENT",
  identityNumber: syntheticIdentityNumber(41),
  barcode: "TESTYOK-0041-KAREKOD",
  qrOnly: true,
  fields: {
    firstName: "DEFNE",
    lastName: "KAREKODLU",
    birthDate: "08.05.2004",
    university: "DENEME ÜNİVERSİTESİ",
    program: "MATEMATİK",
    registeredAt: "13.09.2022",
    classYear: "3. Sınıf",
    studentStatus: "Aktif Öğrenci",
  },
};
const KEYS = { barcode: QR_ONLY.barcode, identityNumber: QR_ONLY.identityNumber };
const APP_PAYLOAD = `barkodlubelgedogrulama://barkod: ${KEYS.barcode};tckn:${KEYS.identityNumber}`;
const TRANSCRIPT_LINK = "https://www.turkiye.gov.tr/belge-dogrulama?belge=transkript;sayfa=1";

async function content(fileType: FileType, bytes: Uint8Array): Promise<DocumentContent> {
  const read = await libraryDocumentReader.read(fileType, bytes);
  if (!read.readable) throw new Error(`unreadable: ${read.reason.code}`);
  return read.content;
}

describe("a certificate that carries its keys only in e-Devlet's QR payload", () => {
  it("a QR-only PDF: the text layer has neither key, the QR code has both", async () => {
    const read = await content("pdf", await certificatePdf(QR_ONLY));

    expect(read.qrCodes).toEqual([APP_PAYLOAD]);
    expect(read.lines.join("\n")).toContain("Adı Soyadı : DEFNE KAREKODLU");
    expect(read.lines.join("\n")).not.toContain(KEYS.barcode);
    expect(read.lines.join("\n")).not.toContain(KEYS.identityNumber);
    expect(documentKeys({ lines: read.lines, qrCodes: [] })).toEqual({});
    expect(documentKeys(read)).toEqual(KEYS);
  });

  it.each(["png", "jpeg"] as const)("a photo (%s) of the QR-only PDF", async (format) => {
    const read = await content(format, await certificatePhoto(QR_ONLY, format));

    expect(read).toEqual({ lines: [], linesPerPage: [], qrCodes: [APP_PAYLOAD] });
    expect(documentKeys(read)).toEqual(KEYS);
  });

  it("a PDF whose payload lacks the scheme and ends with a transcript's link", async () => {
    const spec: CertificateSpec = {
      ...QR_ONLY,
      qr: { kind: "edevlet", scheme: false, furtherItems: [TRANSCRIPT_LINK] },
    };
    const read = await content("pdf", await certificatePdf(spec));

    expect(read.qrCodes).toEqual([`barkod: ${KEYS.barcode};tckn:${KEYS.identityNumber};${TRANSCRIPT_LINK}`]);
    expect(documentKeys({ lines: read.lines, qrCodes: [] })).toEqual({});
    expect(documentKeys(read)).toEqual(KEYS);
  });
});
