/**
 * The document types, their rule checks and rule reasons, their extracted fields, and their
 * labels in both languages, generated from shared/domain/document-registry.ts by
 * `npm run openapi`. Do not edit.
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

/** Each rule check's detail when the rule is met (`rule_met`), by the check's name. */
export const RULE_MET_WORDS = {
  en: {
    student_active: "The certificate shows an active student",
    student_accommodated: "The certificate shows the student living in the dormitory",
    graduated: "The certificate shows the holder graduated",
    no_criminal_record: "The certificate shows no criminal record",
  },
  tr: {
    student_active: "Belge, öğrencinin aktif olduğunu gösteriyor",
    student_accommodated: "Belge, öğrencinin yurtta kaldığını gösteriyor",
    graduated: "Belge, sahibinin mezun olduğunu gösteriyor",
    no_criminal_record: "Belge, adli sicil kaydı olmadığını gösteriyor",
  },
} as const;

/** Each rule check's detail when the rule is not met (`rule_not_met`), by the check's name. */
export const RULE_NOT_MET_WORDS = {
  en: {
    student_active: "The certificate shows a student who is not active",
    student_accommodated: "The certificate shows a student who no longer lives in the dormitory",
    graduated: "The certificate does not show the holder graduated",
    no_criminal_record: "The certificate shows a criminal record",
  },
  tr: {
    student_active: "Belge, öğrencinin aktif olmadığını gösteriyor",
    student_accommodated: "Belge, öğrencinin artık yurtta kalmadığını gösteriyor",
    graduated: "Belge, sahibinin mezun olduğunu göstermiyor",
    no_criminal_record: "Belge, bir adli sicil kaydı gösteriyor",
  },
} as const;

/** Each schema's fields, in the order the pages show them (its layout's labels' order). */
export const SCHEMA_FIELDS = {
  "yok_student.v1": [
    "full_name",
    "mother_name",
    "father_name",
    "birth_date",
    "barcode",
    "nationality",
    "registered_at",
    "education_type",
    "education_duration_years",
    "student_status",
    "is_active",
    "class_year",
    "university_name",
    "faculty_name",
    "department_name",
    "program_name",
  ],
  "gsb_kyk_dorm.v1": [
    "first_name",
    "last_name",
    "mother_name",
    "father_name",
    "birth_date",
    "barcode",
    "city",
    "district",
    "dorm_name",
    "registered_at",
    "is_accommodated",
  ],
  "yok_graduate.v1": [
    "full_name",
    "father_name",
    "mother_name",
    "birth_date",
    "barcode",
    "university_name",
    "faculty_name",
    "program_name",
    "graduated_at",
    "diploma_grade",
    "diploma_number",
    "graduation_status",
    "is_graduated",
  ],
  "nvi_residence.v1": [
    "full_name",
    "father_name",
    "mother_name",
    "birth_place",
    "birth_date",
    "barcode",
    "address",
    "address_number",
    "moved_in_at",
    "declared_at",
  ],
  "criminal_record.v1": [
    "full_name",
    "father_name",
    "mother_name",
    "birth_place",
    "birth_date",
    "barcode",
    "purpose",
    "record",
    "has_record",
  ],
  "sgk_service_record.v1": [
    "full_name",
    "father_name",
    "birth_date",
    "barcode",
    "insurance_type",
    "first_registered_at",
    "total_insured_days",
    "latest_employer",
    "latest_employment_started_at",
  ],
  "edevlet_document.v1": ["full_name", "barcode", "title", "issued_at"],
} as const;

/** Each extracted field's label, by its name. */
export const FIELD_WORDS = {
  en: {
    full_name: "Full name",
    mother_name: "Mother's name",
    father_name: "Father's name",
    birth_date: "Date of birth",
    barcode: "Barcode",
    nationality: "Nationality",
    registered_at: "Enrolled on",
    education_type: "Education type",
    education_duration_years: "Programme length (years)",
    student_status: "Student status",
    is_active: "Active student",
    class_year: "Class year",
    university_name: "University",
    faculty_name: "Faculty",
    department_name: "Department",
    program_name: "Programme",
    first_name: "First name",
    last_name: "Last name",
    city: "City",
    district: "District",
    dorm_name: "Dormitory",
    is_accommodated: "Staying in the dormitory",
    graduated_at: "Graduated on",
    diploma_grade: "Diploma grade",
    diploma_number: "Diploma number",
    graduation_status: "Graduation status",
    is_graduated: "Graduated",
    birth_place: "Place of birth",
    address: "Address",
    address_number: "Address number",
    moved_in_at: "Moved in on",
    declared_at: "Declared on",
    purpose: "Issued for",
    record: "Criminal record",
    has_record: "Has a criminal record",
    insurance_type: "Insurance type",
    first_registered_at: "First insured on",
    total_insured_days: "Days insured in all",
    latest_employer: "Latest employer",
    latest_employment_started_at: "Latest employment since",
    title: "Document title",
    issued_at: "Issued on",
  },
  tr: {
    full_name: "Adı Soyadı",
    mother_name: "Anne Adı",
    father_name: "Baba Adı",
    birth_date: "Doğum Tarihi",
    barcode: "Barkod",
    nationality: "Uyruğu",
    registered_at: "Kayıt Tarihi",
    education_type: "Öğrenim Türü",
    education_duration_years: "Öğrenim Süresi (yıl)",
    student_status: "Öğrencilik Durumu",
    is_active: "Aktif öğrenci",
    class_year: "Sınıf",
    university_name: "Üniversite",
    faculty_name: "Fakülte",
    department_name: "Bölüm",
    program_name: "Program",
    first_name: "Adı",
    last_name: "Soyadı",
    city: "İl",
    district: "İlçe",
    dorm_name: "Yurt",
    is_accommodated: "Yurtta kalıyor",
    graduated_at: "Mezuniyet Tarihi",
    diploma_grade: "Diploma Notu",
    diploma_number: "Diploma No",
    graduation_status: "Mezuniyet Durumu",
    is_graduated: "Mezun",
    birth_place: "Doğum Yeri",
    address: "Yerleşim Yeri Adresi",
    address_number: "Adres No",
    moved_in_at: "Taşınma Tarihi",
    declared_at: "Beyan Tarihi",
    purpose: "Belgenin Verileceği Yer",
    record: "Adli Sicil Kaydı",
    has_record: "Adli sicil kaydı var",
    insurance_type: "Sigortalılık Türü",
    first_registered_at: "İlk İşe Giriş Tarihi",
    total_insured_days: "Toplam Prim Gün Sayısı",
    latest_employer: "Son İşyeri Unvanı",
    latest_employment_started_at: "Son İşe Giriş Tarihi",
    title: "Belge Başlığı",
    issued_at: "Belge Tarihi",
  },
} as const;
