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
      met: "The certificate shows an active student",
      notMet: "The certificate shows a student who is not active",
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
      met: "The certificate shows the student living in the dormitory",
      notMet: "The certificate shows a student who no longer lives in the dormitory",
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
      met: "The certificate shows the holder graduated",
      notMet: "The certificate does not show the holder graduated",
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
      met: "The certificate shows no criminal record",
      notMet: "The certificate shows a criminal record",
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
