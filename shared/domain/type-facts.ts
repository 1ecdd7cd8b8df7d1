/**
 * Each document type's code, description, accepted files, size cap, extracted schema and rule
 * (its check, reason and sentences), without the layout that reads it: generated from
 * shared/domain/document-registry.ts by `npm run openapi`. Do not edit.
 */

export const TYPE_FACTS = [
  {
    code: "YOK_STUDENT",
    description: "YÖK student certificate (Öğrenci Belgesi) from e-Devlet",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "yok_student.v1",
    rule: {
      check: "student_active",
      reasonCode: "student_not_active",
      message: "The certificate does not show an active student",
      finding: "found the certificate does not show an active student",
    },
  },
  {
    code: "GSB_KYK_DORM",
    description: "KYK dormitory certificate (GSB Yurt Belgesi) from e-Devlet",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "gsb_kyk_dorm.v1",
    rule: {
      check: "student_accommodated",
      reasonCode: "student_not_accommodated",
      message: "The certificate does not show a student staying in the dormitory",
      finding: "found the certificate does not show a student staying in the dormitory",
    },
  },
  {
    code: "YOK_GRADUATE",
    description: "YÖK graduate certificate (Mezun Belgesi) from e-Devlet",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "yok_graduate.v1",
    rule: {
      check: "graduated",
      reasonCode: "not_graduated",
      message: "The certificate does not show a graduate",
      finding: "found the certificate does not show a graduate",
    },
  },
  {
    code: "NVI_RESIDENCE",
    description: "Residence certificate (Yerleşim Yeri ve Diğer Adres Belgesi, NVİ) from e-Devlet",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "nvi_residence.v1",
    rule: null,
  },
  {
    code: "CRIMINAL_RECORD",
    description: "Criminal record certificate (Adli Sicil Kaydı, Adalet Bakanlığı) from e-Devlet",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "criminal_record.v1",
    rule: {
      check: "no_criminal_record",
      reasonCode: "criminal_record_present",
      message: "The certificate shows a criminal record",
      finding: "found the certificate shows a criminal record",
    },
  },
  {
    code: "SGK_SERVICE_RECORD",
    description: "SGK service record (Tescil ve Hizmet Dökümü) from e-Devlet",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "sgk_service_record.v1",
    rule: null,
  },
  {
    code: "EDEVLET_DOCUMENT",
    description: "Any e-Devlet barcoded document, checked for authenticity only",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "edevlet_document.v1",
    rule: null,
  },
] as const;
