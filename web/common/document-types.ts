/**
 * The document types, their rule checks and rule reasons, and their labels in both languages,
 * generated from shared/domain/document-registry.ts by `npm run openapi`. Do not edit.
 */

/** The document types, in the registry's order. */
export const DOCUMENT_TYPE_CODES = [
  "YOK_STUDENT",
  "GSB_KYK_DORM",
  "YOK_GRADUATE",
  "NVI_RESIDENCE",
  "CRIMINAL_RECORD",
  "SGK_SERVICE_RECORD",
  "EDEVLET_DOCUMENT",
] as const;

/** The checks the types' rules add. */
export const RULE_CHECKS = ["student_active", "student_accommodated", "graduated", "no_criminal_record"] as const;

/** The reasons the types' rules reject with. */
export const RULE_REASONS = [
  "student_not_active",
  "student_not_accommodated",
  "not_graduated",
  "criminal_record_present",
] as const;

/** Each type's name, by its code. */
export const TYPE_WORDS = {
  en: {
    YOK_STUDENT: "YÖK student certificate",
    GSB_KYK_DORM: "GSB KYK dormitory certificate",
    YOK_GRADUATE: "YÖK graduate certificate",
    NVI_RESIDENCE: "NVİ residence certificate",
    CRIMINAL_RECORD: "Criminal record certificate",
    SGK_SERVICE_RECORD: "SGK service record",
    EDEVLET_DOCUMENT: "e-Devlet document",
  },
  tr: {
    YOK_STUDENT: "YÖK öğrenci belgesi",
    GSB_KYK_DORM: "GSB KYK yurt belgesi",
    YOK_GRADUATE: "YÖK mezun belgesi",
    NVI_RESIDENCE: "NVİ yerleşim yeri belgesi",
    CRIMINAL_RECORD: "Adli sicil kaydı belgesi",
    SGK_SERVICE_RECORD: "SGK hizmet dökümü",
    EDEVLET_DOCUMENT: "e-Devlet belgesi",
  },
} as const;

/** Each rule check's label, by its name. */
export const RULE_CHECK_WORDS = {
  en: {
    student_active: "Student active",
    student_accommodated: "Student accommodated",
    graduated: "Graduated",
    no_criminal_record: "No criminal record",
  },
  tr: {
    student_active: "Öğrenci aktif",
    student_accommodated: "Öğrenci yurtta kalıyor",
    graduated: "Mezun",
    no_criminal_record: "Adli sicil kaydı yok",
  },
} as const;

/** Each rule reason's label, by its code. */
export const RULE_REASON_WORDS = {
  en: {
    student_not_active: "Student not active",
    student_not_accommodated: "Student not accommodated",
    not_graduated: "Not graduated",
    criminal_record_present: "Criminal record present",
  },
  tr: {
    student_not_active: "Öğrenci aktif değil",
    student_not_accommodated: "Öğrenci yurtta kalmıyor",
    not_graduated: "Mezun değil",
    criminal_record_present: "Adli sicil kaydı var",
  },
} as const;
