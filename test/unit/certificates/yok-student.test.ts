import { describe, expect, it } from "vitest";
import { splitUnitPath, yokStudentLayout } from "#shared/domain/certificates/yok-student";
import { registryEntry } from "#shared/domain/document-registry";

const rule = registryEntry("YOK_STUDENT").rule;
if (rule === null) throw new Error("YOK_STUDENT has a rule");

const BARCODE = "YOK-ABCD-1234";

/** A certificate as the model layout prints it. */
const CERTIFICATE = [
  "T.C.",
  "YÜKSEKÖĞRETİM KURULU BAŞKANLIĞI",
  "ÖĞRENCİ BELGESİ",
  "T.C. Kimlik No : 10000000146",
  "Adı Soyadı : AYŞE NUR YILMAZ",
  "Baba Adı : MEHMET",
  "Anne Adı : FATMA",
  "Doğum Tarihi : 01.02.2003",
  "Uyruğu : T.C.",
  "Kayıt Tarihi : 15.09.2021",
  "Öğrenim Türü : Örgün Öğretim",
  "Öğrenim Süresi : 4 Yıl",
  "Öğrencilik Durumu : Aktif Öğrenci",
  "Sınıfı : 3. Sınıf",
  "Birimi : ANKARA ÜNİVERSİTESİ / MÜHENDİSLİK FAKÜLTESİ / BİLGİSAYAR MÜHENDİSLİĞİ BÖLÜMÜ / BİLGİSAYAR MÜHENDİSLİĞİ PR.",
  `Barkod No : ${BARCODE}`,
];

const COMPLETE = {
  full_name: "AYŞE NUR YILMAZ",
  mother_name: "FATMA",
  father_name: "MEHMET",
  birth_date: "2003-02-01",
  nationality: "T.C.",
  registered_at: "2021-09-15",
  education_type: "Örgün Öğretim",
  education_duration_years: 4,
  student_status: "Aktif Öğrenci",
  is_active: true,
  class_year: 3,
  university_name: "ANKARA ÜNİVERSİTESİ",
  faculty_name: "MÜHENDİSLİK FAKÜLTESİ",
  department_name: "BİLGİSAYAR MÜHENDİSLİĞİ BÖLÜMÜ",
  program_name: "BİLGİSAYAR MÜHENDİSLİĞİ PR.",
  barcode: BARCODE,
};

const read = (lines: string[], barcode = BARCODE) => yokStudentLayout.read(lines, barcode);
/** The certificate with the lines starting with `label` replaced by `lines`. */
const replacing = (label: string, ...lines: string[]) => {
  const at = CERTIFICATE.findIndex((line) => line.startsWith(label));
  if (at < 0) throw new Error(`no ${label} line`);
  return CERTIFICATE.toSpliced(at, 1, ...lines);
};

describe("the YÖK student layout", () => {
  it("reads every field of a complete certificate", () => {
    expect(read(CERTIFICATE)).toEqual({ fields: COMPLETE, incomplete: [] });
    expect(yokStudentLayout.fieldsSchema.parse(COMPLETE)).toEqual(COMPLETE);
  });

  it("never yields the identity number", () => {
    expect(JSON.stringify(read(CERTIFICATE))).not.toContain("10000000146");
    expect(Object.keys(yokStudentLayout.fieldsSchema.parse(COMPLETE))).not.toContain("identity_number");
  });

  it("joins Adı and Soyadı when the name is printed in two lines", () => {
    const { fields } = read(replacing("Adı Soyadı", "Adı : AYŞE NUR", "SOYADI: YILMAZ"));
    expect(fields.full_name).toBe("AYŞE NUR YILMAZ");
  });

  it("reads the unit path from separate labelled lines", () => {
    const lines = replacing(
      "Birimi",
      "Üniversite : ANKARA ÜNİVERSİTESİ",
      "Fakülte / Yüksekokul : MÜHENDİSLİK FAKÜLTESİ",
      "Bölüm : BİLGİSAYAR MÜHENDİSLİĞİ BÖLÜMÜ",
      "Program : BİLGİSAYAR MÜHENDİSLİĞİ PR.",
    );
    expect(read(lines)).toEqual({ fields: COMPLETE, incomplete: [] });
    const institute = read(replacing("Birimi", "Üniversite : A ÜNİVERSİTESİ", "Enstitü : FEN BİLİMLERİ ENSTİTÜSÜ"));
    expect(institute.fields.faculty_name).toBe("FEN BİLİMLERİ ENSTİTÜSÜ");
  });

  it("lets separate labelled lines win over the path, which fills the rest", () => {
    const { fields } = read([...CERTIFICATE, "Program : YAZILIM MÜHENDİSLİĞİ PROGRAMI"]);
    expect(fields.program_name).toBe("YAZILIM MÜHENDİSLİĞİ PROGRAMI");
    expect(fields.university_name).toBe("ANKARA ÜNİVERSİTESİ");
  });

  it("reads a messy text layer", () => {
    const lines = [
      `barkod no ${BARCODE.toLowerCase()}`,
      "SINIFI 3.SINIF",
      "ogrencilik durumu:AKTIF OGRENCI",
      "BIRIMI :  ANKARA   ÜNİVERSİTESİ/MÜHENDİSLİK FAKÜLTESİ /",
      "BİLGİSAYAR MÜHENDİSLİĞİ BÖLÜMÜ / BİLGİSAYAR MÜHENDİSLİĞİ PR.",
      "ogrenim suresi 4",
      "ÖĞRENİM TÜRÜ   :   Örgün   Öğretim",
      "kayit tarihi :15.09. 2021",
      "UYRUGU",
      "T.C.",
      "dogum tarihi : 1.2.2003",
      "ANNE ADI: FATMA",
      "BABA ADI MEHMET",
      "ADI SOYADI",
      "  AYŞE   NUR YILMAZ",
    ];
    expect(read(lines)).toEqual({ fields: { ...COMPLETE, student_status: "AKTIF OGRENCI" }, incomplete: [] });
  });

  it("reads the status rule: Aktif and Aktif Öğrenci mean active, anything else not", () => {
    for (const [status, active] of [
      ["Aktif", true],
      ["AKTİF ÖĞRENCİ", true],
      ["aktif ogrenci", true],
      ["Mezun", false],
      ["Kaydı Silindi", false],
      ["Pasif", false],
      ["Dondurulmuş", false],
      ["Aktif Değil", false],
    ] as const) {
      const { fields, incomplete } = read(replacing("Öğrencilik Durumu", `Öğrencilik Durumu : ${status}`));
      expect(fields.student_status, status).toBe(status);
      expect(fields.is_active, status).toBe(active);
      expect(rule.passes(fields), status).toBe(active);
      expect(incomplete).toEqual([]);
    }
  });

  it("reads the class year and the duration", () => {
    for (const [printed, year] of [
      ["3", 3],
      ["3. Sınıf", 3],
      ["1.SINIF", 1],
      ["Hazırlık", 0],
      ["HAZIRLIK SINIFI", 0],
    ] as const) {
      expect(read(replacing("Sınıfı", `Sınıfı : ${printed}`)).fields.class_year, printed).toBe(year);
    }
    for (const [printed, years] of [
      ["4", 4],
      ["4 Yıl", 4],
      ["6 YIL", 6],
      ["dört yıl", null],
    ] as const) {
      expect(read(replacing("Öğrenim Süresi", `Öğrenim Süresi : ${printed}`)).fields.education_duration_years).toBe(
        years,
      );
    }
  });

  it("names each missing required field, and leaves optional ones null", () => {
    const bare = read(["Öğrenim Türü : Örgün Öğretim"], "");
    expect(bare.incomplete).toEqual([
      "full_name",
      "birth_date",
      "registered_at",
      "student_status",
      "class_year",
      "university_name",
      "program_name",
      "barcode",
    ]);
    expect(bare.fields.mother_name).toBeNull();
    expect(bare.fields.is_active).toBeNull();
    expect(bare.fields.education_type).toBe("Örgün Öğretim");
    expect(rule.passes(bare.fields)).toBe(false);
    const optionalGone = read(CERTIFICATE.filter((line) => !/^(Baba|Anne|Uyru|Öğrenim)/.test(line)));
    expect(optionalGone.incomplete).toEqual([]);
    expect(optionalGone.fields).toMatchObject({ mother_name: null, nationality: null, education_duration_years: null });
  });

  it("names malformed required fields", () => {
    const lines = replacing("Doğum Tarihi", "Doğum Tarihi : 30.02.2003").map((line) =>
      line.startsWith("Sınıfı") ? "Sınıfı : Tez Aşaması" : line,
    );
    const { fields, incomplete } = read(lines, "bad barcode");
    expect(incomplete).toEqual(["birth_date", "class_year", "barcode"]);
    expect(fields).toMatchObject({ birth_date: null, class_year: null, barcode: null });
  });

  it("needs both Adı and Soyadı to make the full name", () => {
    expect(read(replacing("Adı Soyadı", "Adı : AYŞE")).incomplete).toEqual(["full_name"]);
  });

  it("takes the program from a path with only a university and a program", () => {
    const { fields, incomplete } = read(replacing("Birimi", "Birimi : A ÜNİVERSİTESİ / B PROGRAMI"));
    expect(incomplete).toEqual([]);
    expect(fields).toMatchObject({ university_name: "A ÜNİVERSİTESİ", faculty_name: null, program_name: "B PROGRAMI" });
  });

  it("gives the subject for subject_match", () => {
    expect(yokStudentLayout.subject(COMPLETE)).toEqual({ full_name: "AYŞE NUR YILMAZ", birth_date: "2003-02-01" });
  });

  it("describes the rule", () => {
    expect(yokStudentLayout.schema).toBe("yok_student.v1");
    expect(registryEntry("YOK_STUDENT").rule).toMatchObject({
      check: "student_active",
      reasonCode: "student_not_active",
    });
  });
});

describe("splitUnitPath", () => {
  it("reads university, faculty, department and program", () => {
    expect(splitUnitPath(" A Ü / B F /C B/ D P ")).toEqual({
      university: "A Ü",
      faculty: "B F",
      department: "C B",
      program: "D P",
    });
  });

  it("keeps the university first and the program last with fewer or more parts", () => {
    expect(splitUnitPath("A")).toEqual({ university: "A" });
    expect(splitUnitPath("A / P")).toEqual({ university: "A", program: "P" });
    expect(splitUnitPath("A / F / P")).toEqual({ university: "A", faculty: "F", program: "P" });
    expect(splitUnitPath("A / F / B / D / P")).toEqual({
      university: "A",
      faculty: "F",
      department: "B / D",
      program: "P",
    });
    expect(splitUnitPath("A / / F / P /")).toEqual({ university: "A", faculty: "F", program: "P" });
  });
});
