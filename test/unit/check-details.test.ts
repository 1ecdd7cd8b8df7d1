/**
 * A check's detail, written from its code and parameters: the API's English sentence (the one
 * catalogue, shared/domain/check-details.ts) and the pages' words in both languages
 * (web/common/check-details.ts), for every code with the values the engine gives it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHECK_DETAILS, checkDetail, type DetailCode, type DetailParams } from "#shared/domain/check-details";
import { UNAVAILABLE_CAUSES } from "#shared/domain/issuer";
import { shownCheck, toResource } from "#shared/domain/verification";
import { renderWebCheckDetails, WEB_CHECK_DETAILS } from "../../openapi/web-check-details.ts";
import { checkDetailText } from "../../web/common/check-details.ts";
import { FIELD_WORDS, TYPE_WORDS } from "../../web/common/document-types.ts";
import { aVerification } from "../support/fakes.ts";

/** Values for every code's parameters, as the engine gives them. */
const SAMPLES: Record<DetailCode, DetailParams> = {
  document_stored: {},
  document_not_stored: {},
  size_as_declared: { bytes: 183422 },
  size_differs: { bytes: 1024, declared_bytes: 2048 },
  file_type_is: { file_type: "PDF" },
  file_type_refused: { document_type: "YOK_STUDENT" },
  document_opens: { file_type: "JPEG" },
  pdf_encrypted: {},
  pdf_no_pages: {},
  pdf_too_many_pages: { max_pages: 50 },
  pdf_unreadable: {},
  png_truncated: {},
  png_no_header: {},
  png_header_invalid: {},
  jpeg_invalid: {},
  jpeg_frame_invalid: {},
  jpeg_no_frame: {},
  image_too_large: { width: 9000, height: 9000, mib: 160 },
  image_unreadable: { file_type: "PNG" },
  read_too_slow: { seconds: 20 },
  read_too_large: { mib: 256 },
  barcode_and_number_read: { barcode: "YOK-7Q4M-2K9D-81XA" },
  barcode_and_number_sent: { barcode: "YOK-7Q4M-2K9D-81XA" },
  barcode_without_number: { barcode: "YOK-7Q4M-2K9D-81XA" },
  barcode_not_in_pdf: {},
  barcode_not_in_image: {},
  issuer_holds_keys: {},
  issuer_holds_image: {},
  issuer_copy_same_bytes: {},
  issuer_copy_same_text: {},
  issuer_copy_differs: {},
  issuer_not_found: {},
  issuer_not_configured: {},
  issuer_no_answer: { cause: "busy" },
  issuer_copy_unreadable: { reason: "pdf_too_many_pages", max_pages: 50 },
  fields_read: {},
  fields_missing: { fields: ["dorm_name", "birth_date"] },
  rule_met: { rule: "student_active" },
  rule_not_met: { rule: "student_accommodated" },
  issue_date_missing: {},
  issued_within: { days: 12, max_days: 30 },
  issued_too_long_ago: { days: 1200, max_days: 30 },
  subject_matches: {},
  subject_differs: {},
  not_run_earlier_failed: {},
  not_run_decided: {},
  not_run_sandbox_prefix: { prefix: "test_rejected_" },
  unrecorded: {},
};
/** The check with `code` as the resource shows it (the stored check, none of its values kept when it has none, read back). */
const resourceCheck = (code: DetailCode) =>
  shownCheck({ name: "a_check", outcome: "passed", ...checkDetail(code, SAMPLES[code]) });
const WRITTEN = (Object.keys(CHECK_DETAILS) as DetailCode[]).filter((code) => code !== "unrecorded");

describe("a check's detail in the API's words", () => {
  it("fills every value a code names, codes by their own words, lists joined; keeps no empty values", () => {
    expect(checkDetail("document_stored")).toEqual({
      detail_code: "document_stored",
      detail: "The document is stored",
    });
    for (const code of WRITTEN) expect(checkDetail(code, SAMPLES[code]).detail, code).not.toMatch(/[{}]/);
    expect(checkDetail("issuer_no_answer", { cause: "timeout" }).detail).toBe(
      "No answer: the issuer did not answer in time, though asked again for the whole retry window",
    );
    expect(checkDetail("issuer_copy_unreadable", SAMPLES.issuer_copy_unreadable).detail).toBe(
      "The issuer's copy could not be read: The PDF has more than 50 pages",
    );
    expect(checkDetail("rule_met", { rule: "student_active" }).detail).toBe("The certificate shows an active student");
    expect(checkDetail("rule_not_met", { rule: "student_active" }).detail).toBe(
      "The certificate shows a student who is not active",
    );
    expect(checkDetail("fields_missing", SAMPLES.fields_missing).detail).toBe(
      "Missing or malformed: dorm_name, birth_date",
    );
  });

  it("has words for every cause an unanswered lookup can have", () => {
    for (const cause of UNAVAILABLE_CAUSES) {
      expect(checkDetail("issuer_no_answer", { cause }).detail, cause).not.toContain(`: ${cause},`);
    }
  });

  it("reads a check stored before checks carried a code as unrecorded, its sentence kept", () => {
    const stored = aVerification({
      status: "completed",
      result: "verified",
      checks: [{ name: "upload_present", outcome: "passed", detail: "The document is stored" }],
    });

    expect(toResource(stored, "2026-11-29T12:00:00Z").checks).toEqual([
      {
        name: "upload_present",
        outcome: "passed",
        detail: "The document is stored",
        detail_code: "unrecorded",
        detail_params: {},
      },
    ]);
  });
});

describe("a check's detail on the pages", () => {
  it("takes the API's codes and sentences from a module written as a fresh rendering makes it", () => {
    const committed = readFileSync(path.resolve(__dirname, "../..", WEB_CHECK_DETAILS), "utf8");
    expect(committed, `${WEB_CHECK_DETAILS} is stale: npm run openapi`).toBe(renderWebCheckDetails());
  });

  it("reads in English as the API wrote it (numbers grouped, a type and fields by their names), for every code", () => {
    for (const code of WRITTEN) {
      const check = resourceCheck(code);
      const shown = checkDetailText(check, "en");
      // The page names a document type and each field by its name where the API gives the code.
      const written = check.detail
        .replace("YOK_STUDENT", TYPE_WORDS.en.YOK_STUDENT)
        .replace("dorm_name, birth_date", `${FIELD_WORDS.en.dorm_name}, ${FIELD_WORDS.en.birth_date}`);
      expect(shown.text.replace(/(\d),(\d{3})/g, "$1$2"), code).toBe(written);
      expect(shown.lang, code).toBeUndefined();
    }
  });

  it("reads in Turkish from the code and its values, never the API's sentence", () => {
    for (const code of WRITTEN) {
      const shown = checkDetailText(resourceCheck(code), "tr");
      expect(shown.text, code).not.toMatch(/[{}]/);
      expect(shown.text, code).not.toBe(checkDetail(code, SAMPLES[code]).detail);
      expect(shown.lang, code).toBeUndefined();
    }
    const turkish = (code: DetailCode) => checkDetailText(resourceCheck(code), "tr").text;
    expect(turkish("size_as_declared")).toBe("183.422 bayt, bildirildiği gibi");
    expect(turkish("issuer_no_answer")).toBe("Yanıt yok: kurum yoğundu; yeniden deneme süresi boyunca yeniden soruldu");
    expect(turkish("issuer_copy_unreadable")).toBe("Kurumun kopyası okunamadı: PDF'in 50 sayfadan fazlası var");
    expect(turkish("rule_not_met")).toBe("Belge, öğrencinin artık yurtta kalmadığını gösteriyor");
    expect(turkish("file_type_refused")).toBe("İçerik, YÖK öğrenci belgesi için kabul edilen bir dosya türü değil");
    expect(turkish("fields_missing")).toMatch(/^Eksik ya da hatalı: \S.*, \S/);
    expect(turkish("fields_missing")).not.toContain("dorm_name");
  });

  it("shows a check recorded before codes, or with a code the page does not know, by its own sentence, marked as English", () => {
    const check = { detail: "The document is stored", detail_code: "unrecorded" as const, detail_params: {} };
    const newer = { ...check, detail: "Checked by a newer rule", detail_code: "newer_rule" as DetailCode };

    expect(checkDetailText(check, "tr")).toEqual({ text: "The document is stored", lang: "en" });
    expect(checkDetailText(newer, "tr")).toEqual({ text: "Checked by a newer rule", lang: "en" });
  });
});
