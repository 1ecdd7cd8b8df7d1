/**
 * Each document type's test-document template: its heading, the fields a spec gives it and the
 * `label : value` lines it prints, in the form's order. The compiler asks for one per type of
 * the registry.
 */
import type { DocumentType } from "#shared/domain/document-types";
import type { Messiness } from "./certificate.ts";

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
  /**
   * The type's published test documents beyond the decision table's rows: each is held by the
   * sandbox's e-Devlet as the same PDF, and is verified, or rejected by the type's rule.
   */
  examples: readonly Example<Fields>[];
}

/** A published test document of a type: an invented holder, and what the sandbox decides. */
export interface Example<Fields> {
  /** The file under docs/test-documents/; also the `original_filename` to send. */
  file: string;
  /** The row of the decision table it shows, in a few words. */
  exercises: string;
  /** `verified`: every step passes; `rule_fails`: the type's rule rejects it. */
  outcome: "verified" | "rule_fails";
  /** The serial of its invented identity number (`syntheticIdentityNumber`). */
  identitySerial: number;
  barcode: string;
  fields: Fields;
  messiness?: Messiness;
  /** The issue date printed, as a spec's `issuedAt`: the template's when absent, none when null. */
  issuedAt?: string | null;
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
    // The decision table's rows show this type: the catalogue publishes its documents.
    examples: [],
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
    // The decision table's rows show this type: the catalogue publishes its documents.
    examples: [],
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
    examples: [
      {
        file: "yok-graduate.pdf",
        exercises: "Every step passes: a graduate (`Mezun`)",
        outcome: "verified",
        identitySerial: 11,
        barcode: "TESTYOKM-0001-MEZUN",
        fields: {
          firstName: "KEREM",
          lastName: "MEZUNOĞLU",
          fatherName: "SADIK",
          motherName: "FİGEN",
          birthDate: "04.04.1998",
          university: "DENEME ÜNİVERSİTESİ",
          faculty: "EĞİTİM FAKÜLTESİ",
          program: "İLKÖĞRETİM MATEMATİK ÖĞRETMENLİĞİ",
          graduatedAt: "28.06.2021",
          diplomaGrade: "3,12",
          diplomaNumber: "2021-0042",
          graduationStatus: "Mezun",
        },
      },
      {
        file: "yok-graduate-not-graduated.pdf",
        exercises: "Type rule fails: not graduated yet (`Mezuniyet Aşamasında`)",
        outcome: "rule_fails",
        identitySerial: 12,
        barcode: "TESTYOKM-0002-MEZUN-DEGIL",
        fields: {
          firstName: "ELİF",
          lastName: "BEKLEYEN",
          fatherName: "TURGUT",
          motherName: "GÖNÜL",
          birthDate: "17.07.2000",
          university: "ÖRNEK TEKNİK ÜNİVERSİTESİ",
          faculty: "MÜHENDİSLİK FAKÜLTESİ",
          program: "İNŞAAT MÜHENDİSLİĞİ",
          graduationStatus: "Mezuniyet Aşamasında",
        },
        messiness: { labelCase: "upper" },
      },
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
    examples: [
      {
        file: "nvi-residence.pdf",
        exercises: "Every step passes: a residence address (no type rule)",
        outcome: "verified",
        identitySerial: 13,
        barcode: "TESTNVI-0001-ADRES",
        fields: {
          firstName: "HAKAN",
          lastName: "ADRESLİ",
          fatherName: "NURİ",
          motherName: "SEHER",
          birthPlace: "ÇORUM",
          birthDate: "12.12.1995",
          address: "ÖRNEK MAH. DENEME SK. NO: 7 İÇ KAPI NO: 3 ÇANKAYA / ANKARA",
          addressNumber: "3000000017",
          movedInAt: "01.08.2023",
          declaredAt: "03.08.2023",
        },
      },
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
    examples: [
      {
        file: "criminal-record-clean.pdf",
        exercises: "Every step passes: no criminal record (`Adli sicil kaydı yoktur`)",
        outcome: "verified",
        identitySerial: 14,
        barcode: "TESTADS-0001-YOKTUR",
        fields: {
          firstName: "GÜL",
          lastName: "TEMİZKAYA",
          fatherName: "YAŞAR",
          motherName: "ÜMMÜHAN",
          birthPlace: "SAMSUN",
          birthDate: "23.03.1997",
          purpose: "ÖZEL KURUM",
          record: "Adli sicil kaydı yoktur",
        },
      },
      {
        file: "criminal-record-present.pdf",
        exercises: "Type rule fails: a criminal record (`Adli sicil kaydı vardır`)",
        outcome: "rule_fails",
        identitySerial: 15,
        barcode: "TESTADS-0002-VARDIR",
        fields: {
          firstName: "ONUR",
          lastName: "KAYITLI",
          fatherName: "CEMİL",
          motherName: "SABAHAT",
          birthPlace: "BURSA",
          birthDate: "09.10.1993",
          purpose: "ÖZEL KURUM",
          record: "Adli sicil kaydı vardır",
        },
        messiness: { colon: "attached", valueRuns: "words" },
      },
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
    examples: [
      {
        file: "sgk-service-record.pdf",
        exercises: "Every step passes: 2,340 days insured, the latest employer printed (no type rule)",
        outcome: "verified",
        identitySerial: 16,
        barcode: "TESTSGK-0001-HIZMET",
        fields: {
          firstName: "SEDA",
          lastName: "ÇALIŞKANÖRNEK",
          fatherName: "İLHAN",
          birthDate: "15.05.1992",
          insuranceType: "4/a",
          firstRegisteredAt: "02.07.2014",
          totalInsuredDays: "2.340",
          latestEmployer: "DENEME YAZILIM TİCARET LİMİTED ŞİRKETİ",
          latestEmploymentStartedAt: "14.02.2022",
        },
      },
    ],
  },
  EDEVLET_DOCUMENT: {
    heading: (f) => ({ authority: f.authority, title: f.title }),
    holder: (f) => f.fullName,
    state: (f) => f.title,
    documentTitle: "e-Devlet Belgesi",
    issuedAt: "13.01.2026",
    lines: (f) => [[LABELS.fullName, f.fullName], ...f.lines.map(([label, value]): Line => [label, value])],
    examples: [
      {
        file: "edevlet-document.pdf",
        exercises: "Every step passes: any barcoded document, checked for authenticity only",
        outcome: "verified",
        identitySerial: 17,
        barcode: "TESTEDV-0001-BELGE",
        fields: {
          authority: ["T.C.", "MİLLİ EĞİTİM BAKANLIĞI"],
          title: "ÖĞRENİM BELGESİ",
          fullName: "MERT LİSELİ",
          lines: [
            ["Okul Adı", "DENEME ANADOLU LİSESİ"],
            ["Mezuniyet Tarihi", "19.06.2020"],
          ],
        },
      },
      /** A document that prints no issue date, which only a freshness requirement would miss. */
      {
        file: "edevlet-document-undated.pdf",
        exercises: "Every step passes: a barcoded document that prints no issue date (`issued_at` null)",
        outcome: "verified",
        identitySerial: 18,
        barcode: "TESTEDV-0002-TARIHSIZ",
        issuedAt: null,
        fields: {
          authority: ["T.C. GENÇLİK VE SPOR BAKANLIĞI"],
          title: "GENÇLİK MERKEZİ ÜYELİK BELGESİ",
          fullName: "DUYGU TARİHSİZ",
          lines: [
            ["Merkez Adı", "ÖRNEK GENÇLİK MERKEZİ"],
            ["Üyelik Durumu", "Üye"],
          ],
        },
      },
    ],
  },
};

/**
 * The template of `type`, typed by its fields: called with a spec's type, it takes that spec's
 * fields, whichever type the spec is.
 */
export function templateOf<Type extends DocumentType>(type: Type): Template<TemplateFields[Type]> {
  return TEMPLATES[type];
}
