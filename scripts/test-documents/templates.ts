/**
 * Each document type's test-document template: its heading, the fields a spec gives it and the
 * `label : value` lines it prints, in the form's order. The compiler asks for one per type of
 * the registry.
 */
import type { DocumentType } from "#shared/domain/document-types";

/** Every field is the text as printed ("14.03.2004", "3. Sınıf", "4 Yıl"); an absent one is not printed. */
export interface PersonFields {
  firstName?: string;
  lastName?: string;
  fatherName?: string;
  motherName?: string;
  birthDate?: string;
}

export interface YokStudentFields extends PersonFields {
  nationality?: string;
  registeredAt?: string;
  educationType?: string;
  educationDuration?: string;
  studentStatus?: string;
  classYear?: string;
  university?: string;
  faculty?: string;
  department?: string;
  program?: string;
}

export interface GsbKykDormFields extends PersonFields {
  city?: string;
  district?: string;
  dormName?: string;
  enteredAt?: string;
  accommodation?: string;
}

export interface YokGraduateFields extends PersonFields {
  university?: string;
  faculty?: string;
  program?: string;
  graduatedAt?: string;
  diplomaGrade?: string;
  diplomaNumber?: string;
  graduationStatus?: string;
}

export interface NviResidenceFields extends PersonFields {
  birthPlace?: string;
  address?: string;
  addressNumber?: string;
  movedInAt?: string;
  declaredAt?: string;
}

export interface CriminalRecordFields extends PersonFields {
  birthPlace?: string;
  purpose?: string;
  record?: string;
}

export interface SgkServiceRecordFields extends PersonFields {
  insuranceType?: string;
  firstRegisteredAt?: string;
  totalInsuredDays?: string;
  latestEmployer?: string;
  latestEmploymentStartedAt?: string;
}

/** Any e-Devlet barcoded document: whatever heading and lines it prints. */
export interface EdevletDocumentFields {
  authority: readonly string[];
  title: string;
  fullName?: string;
  lines: readonly (readonly [label: string, value: string])[];
}

/** The fields each type's spec gives, by its code. */
export interface TemplateFields {
  YOK_STUDENT: YokStudentFields;
  GSB_KYK_DORM: GsbKykDormFields;
  YOK_GRADUATE: YokGraduateFields;
  NVI_RESIDENCE: NviResidenceFields;
  CRIMINAL_RECORD: CriminalRecordFields;
  SGK_SERVICE_RECORD: SgkServiceRecordFields;
  EDEVLET_DOCUMENT: EdevletDocumentFields;
}

/** The choices of a spec's messiness a template follows. */
export interface LineChoices {
  /** The name as one `Adı Soyadı` line or as `Adı` and `Soyadı`. */
  name?: "one-line" | "separate-lines";
  /** YÖK: the unit path as one `Birimi` line or as `Üniversite`, `Fakülte`, `Bölüm`, `Program`. */
  unitPath?: "one-line" | "separate-lines";
}

export type Line = [label: string, value: string | undefined];

export interface Template<Fields> {
  /** The issuing body's lines and the title, at the top of the page. */
  heading(fields: Fields): { authority: readonly string[]; title: string };
  /** The PDF's title in its metadata. */
  documentTitle: string;
  /** The issue date printed when the spec does not say, `DD.MM.YYYY`, maybe with a time. */
  issuedAt: string;
  /** The field lines in the form's order, after the identity number (undefined: not printed). */
  lines(fields: Fields, choices: LineChoices): Line[];
  /** Whom the document names, and the value its rule (or its purpose) turns on, for the README. */
  holder(fields: Fields): string | undefined;
  state(fields: Fields): string | undefined;
}

export const LABELS = {
  fullName: "Adı Soyadı",
  firstName: "Adı",
  lastName: "Soyadı",
  fatherName: "Baba Adı",
  motherName: "Anne Adı",
  birthDate: "Doğum Tarihi",
  birthPlace: "Doğum Yeri",
} as const;

const joinedName = (fields: PersonFields) => [fields.firstName, fields.lastName].filter(Boolean).join(" ") || undefined;

function nameLines(fields: PersonFields, choices: LineChoices): Line[] {
  return choices.name === "separate-lines"
    ? [
        [LABELS.firstName, fields.firstName],
        [LABELS.lastName, fields.lastName],
      ]
    : [[LABELS.fullName, joinedName(fields)]];
}

const fixedHeading =
  (authority: readonly string[], title: string) => (): { authority: readonly string[]; title: string } => ({
    authority,
    title,
  });

export const TEMPLATES: { [Type in DocumentType]: Template<TemplateFields[Type]> } = {
  YOK_STUDENT: {
    heading: fixedHeading(["T.C.", "YÜKSEKÖĞRETİM KURULU BAŞKANLIĞI"], "ÖĞRENCİ BELGESİ"),
    holder: joinedName,
    state: (f) => f.studentStatus,
    documentTitle: "Öğrenci Belgesi",
    issuedAt: "05.01.2026",
    lines: (f, choices) => {
      const parts = [f.university, f.faculty, f.department, f.program];
      const unit: Line[] =
        choices.unitPath === "separate-lines"
          ? [
              ["Üniversite", f.university],
              ["Fakülte", f.faculty],
              ["Bölüm", f.department],
              ["Program", f.program],
            ]
          : [["Birimi", parts.filter(Boolean).join(" / ") || undefined]];
      return [
        ...nameLines(f, choices),
        [LABELS.fatherName, f.fatherName],
        [LABELS.motherName, f.motherName],
        [LABELS.birthDate, f.birthDate],
        ["Uyruğu", f.nationality],
        ...unit,
        ["Kayıt Tarihi", f.registeredAt],
        ["Öğrenim Türü", f.educationType],
        ["Öğrenim Süresi", f.educationDuration],
        ["Sınıfı", f.classYear],
        ["Öğrencilik Durumu", f.studentStatus],
      ];
    },
  },
  GSB_KYK_DORM: {
    heading: fixedHeading(
      ["T.C. GENÇLİK VE SPOR BAKANLIĞI", "KREDİ VE YURTLAR GENEL MÜDÜRLÜĞÜ"],
      "ÖĞRENCİ YURT BELGESİ",
    ),
    holder: joinedName,
    state: (f) => f.accommodation,
    documentTitle: "Öğrenci Yurt Belgesi",
    issuedAt: "06.01.2026 14:05",
    lines: (f) => [
      [LABELS.firstName, f.firstName],
      [LABELS.lastName, f.lastName],
      [LABELS.fatherName, f.fatherName],
      [LABELS.motherName, f.motherName],
      [LABELS.birthDate, f.birthDate],
      ["İl", f.city],
      ["İlçe", f.district],
      ["Yurt Adı", f.dormName],
      ["Yurda Giriş Tarihi", f.enteredAt],
      ["Yurtta Kalma Durumu", f.accommodation],
    ],
  },
  YOK_GRADUATE: {
    heading: fixedHeading(["T.C.", "YÜKSEKÖĞRETİM KURULU BAŞKANLIĞI"], "MEZUN BELGESİ"),
    holder: joinedName,
    state: (f) => f.graduationStatus,
    documentTitle: "Mezun Belgesi",
    issuedAt: "07.01.2026",
    lines: (f, choices) => [
      ...nameLines(f, { ...choices, name: "one-line" }),
      [LABELS.fatherName, f.fatherName],
      [LABELS.motherName, f.motherName],
      [LABELS.birthDate, f.birthDate],
      ["Üniversite", f.university],
      ["Fakülte / Yüksekokul", f.faculty],
      ["Program", f.program],
      ["Mezuniyet Tarihi", f.graduatedAt],
      ["Diploma Notu", f.diplomaGrade],
      ["Diploma No", f.diplomaNumber],
      ["Mezuniyet Durumu", f.graduationStatus],
    ],
  },
  NVI_RESIDENCE: {
    heading: fixedHeading(
      ["T.C. İÇİŞLERİ BAKANLIĞI", "NÜFUS VE VATANDAŞLIK İŞLERİ GENEL MÜDÜRLÜĞÜ"],
      "YERLEŞİM YERİ VE DİĞER ADRES BELGESİ",
    ),
    holder: joinedName,
    state: (f) => f.address,
    documentTitle: "Yerleşim Yeri ve Diğer Adres Belgesi",
    issuedAt: "08.01.2026 09:30",
    lines: (f, choices) => [
      ...nameLines(f, { ...choices, name: "one-line" }),
      [LABELS.fatherName, f.fatherName],
      [LABELS.motherName, f.motherName],
      [LABELS.birthPlace, f.birthPlace],
      [LABELS.birthDate, f.birthDate],
      ["Yerleşim Yeri Adresi", f.address],
      ["Adres No", f.addressNumber],
      ["Taşınma Tarihi", f.movedInAt],
      ["Beyan Tarihi", f.declaredAt],
    ],
  },
  CRIMINAL_RECORD: {
    heading: fixedHeading(["T.C. ADALET BAKANLIĞI", "ADLİ SİCİL VE İSTATİSTİK GENEL MÜDÜRLÜĞÜ"], "ADLİ SİCİL BELGESİ"),
    holder: joinedName,
    state: (f) => f.record,
    documentTitle: "Adli Sicil Belgesi",
    issuedAt: "09.01.2026 11:20",
    lines: (f, choices) => [
      ...nameLines(f, { ...choices, name: "one-line" }),
      [LABELS.fatherName, f.fatherName],
      [LABELS.motherName, f.motherName],
      [LABELS.birthPlace, f.birthPlace],
      [LABELS.birthDate, f.birthDate],
      ["Belgenin Verileceği Yer", f.purpose],
      ["Adli Sicil Kaydı", f.record],
    ],
  },
  SGK_SERVICE_RECORD: {
    heading: fixedHeading(["T.C. SOSYAL GÜVENLİK KURUMU BAŞKANLIĞI"], "TESCİL VE HİZMET DÖKÜMÜ"),
    holder: joinedName,
    state: (f) => (f.totalInsuredDays === undefined ? undefined : `${f.totalInsuredDays} gün`),
    documentTitle: "Tescil ve Hizmet Dökümü",
    issuedAt: "12.01.2026 16:45",
    lines: (f, choices) => [
      ...nameLines(f, { ...choices, name: "one-line" }),
      [LABELS.fatherName, f.fatherName],
      [LABELS.birthDate, f.birthDate],
      ["Sigortalılık Türü", f.insuranceType],
      ["İlk İşe Giriş Tarihi", f.firstRegisteredAt],
      ["Toplam Prim Gün Sayısı", f.totalInsuredDays],
      ["Son İşyeri Unvanı", f.latestEmployer],
      ["Son İşe Giriş Tarihi", f.latestEmploymentStartedAt],
    ],
  },
  EDEVLET_DOCUMENT: {
    heading: (f) => ({ authority: f.authority, title: f.title }),
    holder: (f) => f.fullName,
    state: (f) => f.title,
    documentTitle: "e-Devlet Belgesi",
    issuedAt: "13.01.2026",
    lines: (f) => [[LABELS.fullName, f.fullName], ...f.lines.map(([label, value]): Line => [label, value])],
  },
};

/**
 * The template of `type`, typed by its fields: called with a spec's type, it takes that spec's
 * fields, whichever type the spec is.
 */
export function templateOf<Type extends DocumentType>(type: Type): Template<TemplateFields[Type]> {
  return TEMPLATES[type];
}
