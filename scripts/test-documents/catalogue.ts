/**
 * The published test documents: one per row of the decision table that a document can
 * exercise (verification-engine.md, "The decision table"), each with what to send on create,
 * what the sandbox's e-Devlet holds for its barcode, and the outcome the sandbox answers; then
 * each type's own examples, declared with its template (`templates.ts`).
 * Every person, number and place here is invented.
 */

import { registryEntry } from "#shared/domain/document-registry";
import type { FraudSignal, ReasonCode } from "#shared/domain/reasons";
import type { Result, Status } from "#shared/domain/state";
import {
  CERTIFICATE_TYPES,
  type CertificateSpec,
  type CertificateType,
  type GsbKykDormSpec,
  type PhotoFormat,
  syntheticIdentityNumber,
  type YokStudentSpec,
} from "./certificate.ts";
import { templateOf } from "./templates.ts";

/** What the customer uploads. */
export type Upload =
  | { kind: "pdf"; spec: CertificateSpec }
  /** The certificate, protected with a user password (the password is published, for curiosity). */
  | { kind: "encrypted-pdf"; spec: CertificateSpec; password: string }
  | { kind: "photo"; spec: CertificateSpec; format: PhotoFormat }
  /**
   * The certificate loaded and saved again by a second PDF writer (other bytes, the same text on
   * every page), as a viewer's "save as" does.
   */
  | { kind: "resaved-pdf"; spec: CertificateSpec };

/** What the sandbox's e-Devlet holds for the barcode the upload carries. */
export type IssuerHolding =
  | { kind: "nothing" }
  /** The issuer's PDF for the barcode; `spec` equal to the upload's means the same bytes. */
  | { kind: "document"; spec: CertificateSpec; description: string }
  /** An empty `<barcode>.busy` marker: the sandbox's e-Devlet answers busy for that barcode. */
  | { kind: "busy" };

export interface ExpectedSubject {
  full_name?: string;
  birth_date?: string;
}

export interface CatalogueEntry {
  /** The file under docs/test-documents/; also the `original_filename` to send. */
  file: string;
  documentType: CertificateType;
  /** The row of the decision table, in a few words. */
  exercises: string;
  /** What the create request carries besides document_type, original_filename and file_size_bytes. */
  create: { expected_subject?: ExpectedSubject };
  upload: Upload;
  issuer: IssuerHolding;
  expected: { status: Status; result: Result | null; reason_code: ReasonCode };
  /** The `fraud_signals` the outcome carries (verification-engine.md): none unless given. */
  fraudSignals?: readonly FraudSignal[];
}

// --- The invented people -----------------------------------------------------------------------

const ACTIVE_STUDENT: YokStudentSpec = {
  documentType: "YOK_STUDENT",
  identityNumber: syntheticIdentityNumber(1),
  barcode: "TESTYOK-0001-AKTIF",
  fields: {
    firstName: "AYŞE",
    lastName: "DENEME",
    fatherName: "HÜSEYİN",
    motherName: "GÜLŞEN",
    birthDate: "14.03.2004",
    nationality: "T.C.",
    university: "DENEME ÜNİVERSİTESİ",
    faculty: "MÜHENDİSLİK FAKÜLTESİ",
    department: "BİLGİSAYAR MÜHENDİSLİĞİ",
    program: "BİLGİSAYAR MÜHENDİSLİĞİ (İNGİLİZCE)",
    registeredAt: "12.09.2022",
    educationType: "Normal Öğretim",
    educationDuration: "4 Yıl",
    classYear: "3. Sınıf",
    studentStatus: "Aktif Öğrenci",
  },
  messiness: { valueRuns: "words" },
};

const ACCOMMODATED_STUDENT: GsbKykDormSpec = {
  documentType: "GSB_KYK_DORM",
  identityNumber: syntheticIdentityNumber(2),
  barcode: "TESTGSB-0001-KALIYOR",
  fields: {
    firstName: "ÇAĞRI",
    lastName: "ÖRNEKOĞLU",
    fatherName: "İSMAİL",
    motherName: "ŞÜKRAN",
    birthDate: "02.11.2003",
    city: "ESKİŞEHİR",
    district: "TEPEBAŞI",
    dormName: "ÖRNEK ERKEK ÖĞRENCİ YURDU",
    enteredAt: "18.09.2023",
    accommodation: "Yurtta Kalıyor",
  },
  messiness: { labelCase: "upper", colon: "attached", valueRuns: "pieces" },
};

const GRADUATE: YokStudentSpec = {
  documentType: "YOK_STUDENT",
  identityNumber: syntheticIdentityNumber(3),
  barcode: "TESTYOK-0002-MEZUN",
  fields: {
    firstName: "İREM",
    lastName: "SINAMACI",
    fatherName: "OĞUZ",
    motherName: "NURGÜL",
    birthDate: "29.06.1999",
    nationality: "T.C.",
    university: "ÖRNEK TEKNİK ÜNİVERSİTESİ",
    faculty: "İKTİSADİ VE İDARİ BİLİMLER FAKÜLTESİ",
    department: "İŞLETME",
    program: "İŞLETME",
    registeredAt: "05.09.2017",
    educationType: "İkinci Öğretim",
    educationDuration: "4",
    classYear: "4",
    studentStatus: "Mezun",
  },
  messiness: {
    asciiLabels: true,
    colon: "none",
    order: "shuffled",
    name: "separate-lines",
    unitPath: "separate-lines",
    barcodeLabel: "Belge Doğrulama Kodu",
  },
  // The app's payload as the mobile endpoint takes it: no scheme, no space, a trailing `;`; here in upper case.
  qr: { kind: "edevlet", scheme: false, case: "upper", spaceAfterBarcode: false, trailingSeparator: true },
};

const FORMER_RESIDENT: GsbKykDormSpec = {
  documentType: "GSB_KYK_DORM",
  identityNumber: syntheticIdentityNumber(4),
  barcode: "TESTGSB-0002-AYRILDI",
  fields: {
    firstName: "ÖMER",
    lastName: "TESTOĞLU",
    fatherName: "YUSUF",
    motherName: "HATİCE",
    birthDate: "07.01.2002",
    city: "MUĞLA",
    district: "MENTEŞE",
    dormName: "DENEME KIZ VE ERKEK ÖĞRENCİ YURDU",
    enteredAt: "25.09.2021",
    accommodation: "Ayrıldı",
  },
  messiness: { labelCase: "upper", asciiLabels: true, order: "shuffled", valueRuns: "words" },
  // A verification link instead of the app's payload, which the reader also accepts.
  qr: { kind: "link", parameter: "barcode" },
};

/** The issuer's original: a graduate. The altered upload turns the status into an active one. */
const ALTERED_ORIGINAL: YokStudentSpec = {
  documentType: "YOK_STUDENT",
  identityNumber: syntheticIdentityNumber(5),
  barcode: "TESTYOK-0003-DEGISTIRILMIS",
  fields: {
    firstName: "BURAK",
    lastName: "DENEMEOĞLU",
    fatherName: "ALİ",
    motherName: "SEVGİ",
    birthDate: "21.12.2000",
    nationality: "T.C.",
    university: "DENEME ÜNİVERSİTESİ",
    faculty: "FEN FAKÜLTESİ",
    department: "FİZİK",
    program: "FİZİK",
    registeredAt: "09.09.2019",
    educationType: "Normal Öğretim",
    educationDuration: "4 Yıl",
    classYear: "4. Sınıf",
    studentStatus: "Mezun",
  },
  messiness: { labelCase: "upper", unitPath: "separate-lines", valueRuns: "pieces" },
};

const ALTERED_UPLOAD: YokStudentSpec = {
  ...ALTERED_ORIGINAL,
  fields: { ...ALTERED_ORIGINAL.fields, studentStatus: "Aktif Öğrenci" },
};

const UNKNOWN_TO_ISSUER: GsbKykDormSpec = {
  documentType: "GSB_KYK_DORM",
  identityNumber: syntheticIdentityNumber(6),
  barcode: "TESTGSB-0003-BILINMIYOR",
  // The pairs followed by a link, as transcripts print them.
  qr: { kind: "edevlet", furtherItems: ["https://www.turkiye.gov.tr/belge-dogrulama?belge=yurt;sayfa=1"] },
  fields: {
    firstName: "ŞEYMA",
    lastName: "ÖRNEKÇİ",
    fatherName: "MUSTAFA",
    motherName: "ZÜBEYDE",
    birthDate: "16.05.2004",
    city: "İZMİR",
    district: "BORNOVA",
    dormName: "ÖRNEK KIZ ÖĞRENCİ YURDU",
    enteredAt: "20.09.2024",
    accommodation: "Kalıyor",
  },
};

const WITHOUT_BARCODE: YokStudentSpec = {
  documentType: "YOK_STUDENT",
  identityNumber: syntheticIdentityNumber(7),
  fields: {
    firstName: "DENİZ",
    lastName: "ÇİZGİSİZ",
    fatherName: "KEMAL",
    motherName: "AYNUR",
    birthDate: "03.08.2003",
    nationality: "T.C.",
    university: "ÖRNEK TEKNİK ÜNİVERSİTESİ",
    faculty: "MİMARLIK FAKÜLTESİ",
    department: "ŞEHİR VE BÖLGE PLANLAMA",
    program: "ŞEHİR VE BÖLGE PLANLAMA",
    registeredAt: "14.09.2021",
    educationType: "Normal Öğretim",
    educationDuration: "4 Yıl",
    classYear: "Hazırlık",
    studentStatus: "Aktif",
  },
};

/** `Yurt Adı` is missing: the issuer printed it so, and the extraction cannot complete. */
const INCOMPLETE: GsbKykDormSpec = {
  documentType: "GSB_KYK_DORM",
  identityNumber: syntheticIdentityNumber(8),
  barcode: "TESTGSB-0004-EKSIK",
  fields: {
    firstName: "EKİN",
    lastName: "EKSİKOĞLU",
    fatherName: "RIZA",
    motherName: "GÜLİZAR",
    birthDate: "11.02.2005",
    city: "TRABZON",
    district: "ORTAHİSAR",
    enteredAt: "22.09.2024",
    accommodation: "Kalıyor",
  },
  messiness: { colon: "attached" },
};

const ISSUER_DOWN: GsbKykDormSpec = {
  documentType: "GSB_KYK_DORM",
  identityNumber: syntheticIdentityNumber(9),
  barcode: "TESTGSB-0005-ERISILEMEZ",
  // A bare barcode in the QR code, as some certificates carry: the number is on the text layer.
  qr: { kind: "bare" },
  fields: {
    firstName: "IŞIL",
    lastName: "BEKLEMECİ",
    fatherName: "CELAL",
    motherName: "NERİMAN",
    birthDate: "30.04.2003",
    city: "KONYA",
    district: "SELÇUKLU",
    dormName: "DENEME ÖĞRENCİ YURDU",
    enteredAt: "19.09.2022",
    accommodation: "Yurtta Kalıyor",
  },
};

const ENCRYPTED: YokStudentSpec = {
  documentType: "YOK_STUDENT",
  identityNumber: syntheticIdentityNumber(10),
  barcode: "TESTYOK-0004-SIFRELI",
  fields: {
    firstName: "SELİN",
    lastName: "ŞİFRELİ",
    fatherName: "ERDAL",
    motherName: "SÜHEYLA",
    birthDate: "19.10.2002",
    nationality: "T.C.",
    university: "DENEME ÜNİVERSİTESİ",
    faculty: "TIP FAKÜLTESİ",
    department: "TIP",
    program: "TIP",
    registeredAt: "11.09.2020",
    educationType: "Normal Öğretim",
    educationDuration: "6 Yıl",
    classYear: "5. Sınıf",
    studentStatus: "Aktif Öğrenci",
  },
};

/** A class year edited on a re-saved copy of `yok-active.pdf`: other text than the issuer's copy. */
const RESAVED_ALTERED: YokStudentSpec = {
  ...ACTIVE_STUDENT,
  fields: { ...ACTIVE_STUDENT.fields, classYear: "4. Sınıf" },
};

/** The expected subject of the mismatch row: not the person on the certificate. */
export const OTHER_SUBJECT: ExpectedSubject = { full_name: "ZEYNEP BAŞKA", birth_date: "2004-03-14" };

export const ENCRYPTED_PASSWORD = "sentetik";

const SAME_PDF = "the same PDF";

// --- The catalogue -------------------------------------------------------------------------------

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    file: "yok-active.pdf",
    documentType: "YOK_STUDENT",
    exercises: "Every step passes: an active student",
    create: {},
    upload: { kind: "pdf", spec: ACTIVE_STUDENT },
    issuer: { kind: "document", spec: ACTIVE_STUDENT, description: SAME_PDF },
    expected: { status: "completed", result: "verified", reason_code: "verified" },
  },
  {
    file: "gsb-accommodated.pdf",
    documentType: "GSB_KYK_DORM",
    exercises: "Every step passes: a student staying in the dormitory",
    create: {},
    upload: { kind: "pdf", spec: ACCOMMODATED_STUDENT },
    issuer: { kind: "document", spec: ACCOMMODATED_STUDENT, description: SAME_PDF },
    expected: { status: "completed", result: "verified", reason_code: "verified" },
  },
  {
    file: "yok-graduated.pdf",
    documentType: "YOK_STUDENT",
    exercises: "Type rule fails: the student has graduated (`Mezun`)",
    create: {},
    upload: { kind: "pdf", spec: GRADUATE },
    issuer: { kind: "document", spec: GRADUATE, description: SAME_PDF },
    expected: { status: "completed", result: "rejected", reason_code: "student_not_active" },
  },
  {
    file: "gsb-left-dorm.pdf",
    documentType: "GSB_KYK_DORM",
    exercises: "Type rule fails: the student has left the dormitory (`Ayrıldı`)",
    create: {},
    upload: { kind: "pdf", spec: FORMER_RESIDENT },
    issuer: { kind: "document", spec: FORMER_RESIDENT, description: SAME_PDF },
    expected: { status: "completed", result: "rejected", reason_code: "student_not_accommodated" },
  },
  {
    file: "yok-altered.pdf",
    documentType: "YOK_STUDENT",
    exercises: "The upload differs from the issuer's copy: `Mezun` edited into `Aktif Öğrenci`",
    create: {},
    upload: { kind: "pdf", spec: ALTERED_UPLOAD },
    issuer: { kind: "document", spec: ALTERED_ORIGINAL, description: "the original, which reads `Mezun`" },
    expected: { status: "completed", result: "rejected", reason_code: "document_altered" },
    fraudSignals: ["document_altered"],
  },
  {
    file: "gsb-unknown-barcode.pdf",
    documentType: "GSB_KYK_DORM",
    exercises: "The issuer has no document with this barcode",
    create: {},
    upload: { kind: "pdf", spec: UNKNOWN_TO_ISSUER },
    issuer: { kind: "nothing" },
    expected: { status: "completed", result: "rejected", reason_code: "document_not_found_at_issuer" },
  },
  {
    file: "yok-no-barcode.pdf",
    documentType: "YOK_STUDENT",
    exercises: "No barcode in the PDF: no `Barkod No` line and no QR code",
    create: {},
    upload: { kind: "pdf", spec: WITHOUT_BARCODE },
    issuer: { kind: "nothing" },
    expected: { status: "completed", result: "rejected", reason_code: "barcode_missing" },
  },
  {
    file: "gsb-fields-incomplete.pdf",
    documentType: "GSB_KYK_DORM",
    exercises: "Required fields missing: no `Yurt Adı` (dorm name) line",
    create: {},
    upload: { kind: "pdf", spec: INCOMPLETE },
    issuer: { kind: "document", spec: INCOMPLETE, description: SAME_PDF },
    expected: { status: "in_review", result: null, reason_code: "fields_incomplete" },
  },
  {
    file: "gsb-issuer-unavailable.pdf",
    documentType: "GSB_KYK_DORM",
    exercises: "The issuer cannot be asked: e-Devlet stays busy for this barcode",
    create: {},
    upload: { kind: "pdf", spec: ISSUER_DOWN },
    issuer: { kind: "busy" },
    expected: { status: "in_review", result: null, reason_code: "issuer_unavailable" },
  },
  {
    file: "yok-encrypted.pdf",
    documentType: "YOK_STUDENT",
    exercises: `Unreadable: the PDF is encrypted with a user password (\`${ENCRYPTED_PASSWORD}\`)`,
    create: {},
    upload: { kind: "encrypted-pdf", spec: ENCRYPTED, password: ENCRYPTED_PASSWORD },
    issuer: { kind: "nothing" },
    expected: { status: "failed", result: null, reason_code: "document_unreadable" },
  },
  {
    file: "yok-photo.png",
    documentType: "YOK_STUDENT",
    exercises: "A photo (PNG) of `yok-active.pdf` instead of the PDF; its QR code carries barcode and identity number",
    create: {},
    upload: { kind: "photo", spec: ACTIVE_STUDENT, format: "png" },
    issuer: {
      kind: "document",
      spec: ACTIVE_STUDENT,
      description: "the photographed certificate (kept for the reviewer)",
    },
    expected: { status: "in_review", result: null, reason_code: "original_pdf_not_provided" },
    fraudSignals: ["upload_not_compared"],
  },
  {
    file: "gsb-photo.jpg",
    documentType: "GSB_KYK_DORM",
    exercises:
      "A photo (JPEG) of `gsb-accommodated.pdf` instead of the PDF; its QR code carries barcode and identity number",
    create: {},
    upload: { kind: "photo", spec: ACCOMMODATED_STUDENT, format: "jpeg" },
    issuer: {
      kind: "document",
      spec: ACCOMMODATED_STUDENT,
      description: "the photographed certificate (kept for the reviewer)",
    },
    expected: { status: "in_review", result: null, reason_code: "original_pdf_not_provided" },
    fraudSignals: ["upload_not_compared"],
  },
  {
    file: "yok-photo.png",
    documentType: "YOK_STUDENT",
    exercises:
      "The same photo with the expected subject: the issuer's copy names AYŞE DENEME, so it is verified from the copy (`fraud_signals: upload_not_compared`)",
    create: { expected_subject: { full_name: "AYŞE DENEME", birth_date: "2004-03-14" } },
    upload: { kind: "photo", spec: ACTIVE_STUDENT, format: "png" },
    issuer: {
      kind: "document",
      spec: ACTIVE_STUDENT,
      description: "the photographed certificate (the evidence the decision rests on)",
    },
    expected: { status: "completed", result: "verified", reason_code: "verified" },
    fraudSignals: ["upload_not_compared"],
  },
  {
    file: "yok-active.pdf",
    documentType: "YOK_STUDENT",
    exercises: "Expected subject differs: the certificate is about AYŞE DENEME, the request expects someone else",
    create: { expected_subject: OTHER_SUBJECT },
    upload: { kind: "pdf", spec: ACTIVE_STUDENT },
    issuer: { kind: "document", spec: ACTIVE_STUDENT, description: SAME_PDF },
    expected: { status: "completed", result: "rejected", reason_code: "subject_mismatch" },
  },
  {
    file: "yok-active-resaved.pdf",
    documentType: "YOK_STUDENT",
    exercises:
      "`yok-active.pdf` saved again by a second PDF writer: other bytes, the same text on every page (`fraud_signals: not_original_file`)",
    create: {},
    upload: { kind: "resaved-pdf", spec: ACTIVE_STUDENT },
    issuer: { kind: "document", spec: ACTIVE_STUDENT, description: "the original `yok-active.pdf`" },
    expected: { status: "completed", result: "verified", reason_code: "verified" },
    fraudSignals: ["not_original_file"],
  },
  {
    file: "yok-active-resaved-altered.pdf",
    documentType: "YOK_STUDENT",
    exercises: "A re-saved copy of `yok-active.pdf` with one value changed: `3. Sınıf` edited into `4. Sınıf`",
    create: {},
    upload: { kind: "resaved-pdf", spec: RESAVED_ALTERED },
    issuer: { kind: "document", spec: ACTIVE_STUDENT, description: "the original `yok-active.pdf`" },
    expected: { status: "completed", result: "rejected", reason_code: "document_altered" },
    fraudSignals: ["document_altered"],
  },
  ...typeExamples(),
];

/** Every type's own examples (its template's), after the decision table's rows. */
function typeExamples(): CatalogueEntry[] {
  return CERTIFICATE_TYPES.flatMap((type) =>
    templateOf(type).examples.map((example): CatalogueEntry => {
      const { file, exercises, outcome, identitySerial, ...printed } = example;
      const spec = { ...printed, documentType: type, identityNumber: syntheticIdentityNumber(identitySerial) };
      const rule = registryEntry(type).rule;
      if (outcome === "rule_fails" && !rule) throw new Error(`${file}: ${type} has no rule to fail`);
      return {
        file,
        documentType: type,
        exercises,
        create: {},
        upload: { kind: "pdf", spec: spec as CertificateSpec },
        issuer: { kind: "document", spec: spec as CertificateSpec, description: SAME_PDF },
        expected:
          outcome === "verified" || !rule
            ? { status: "completed", result: "verified", reason_code: "verified" }
            : { status: "completed", result: "rejected", reason_code: rule.reasonCode },
      };
    }),
  );
}

/** The barcode an entry's upload carries, if any. */
export function uploadBarcode(entry: CatalogueEntry): string | undefined {
  return entry.upload.spec.barcode;
}
