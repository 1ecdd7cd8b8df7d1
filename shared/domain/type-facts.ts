/**
 * Each document type's code, accepted files, size cap, extracted schema and rule
 * (its check, reason and sentences), without the layout that reads it: generated from
 * shared/domain/document-registry.ts by `npm run openapi`. Do not edit.
 */

export const TYPE_FACTS = [
  {
    code: "YOK_STUDENT",
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
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "nvi_residence.v1",
    rule: null,
  },
  {
    code: "CRIMINAL_RECORD",
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
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "sgk_service_record.v1",
    rule: null,
  },
  {
    code: "EDEVLET_DOCUMENT",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10485760,
    schema: "edevlet_document.v1",
    rule: null,
  },
] as const;
