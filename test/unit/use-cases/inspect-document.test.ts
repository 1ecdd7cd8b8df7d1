import { describe, expect, it } from "vitest";
import type { DetailCode, DetailParams } from "#shared/domain/check-details";
import { inspectDocument } from "#shared/use-cases/processing/inspect-document";
import { aVerification, documentBytes, pageContent, ScriptedReader } from "../../support/fakes.ts";

/** A check's detail as the API shows it: the sentence, and the code and values it is written from. */
const detail = (sentence: string, code: DetailCode, params?: DetailParams) => ({
  detail: sentence,
  detail_code: code,
  ...(params ? { detail_params: params } : {}),
});
const SKIPPED = detail("Not run: an earlier check failed", "not_run_earlier_failed");

describe("inspectDocument", () => {
  it("passes the four checks in order for a readable document of the declared size and an allowed type, and hands on its content", async () => {
    const reader = new ScriptedReader();
    reader.content = pageContent(["Barkod No : YOK-7Q4M-2K9D"], ["YOK-7Q4M-2K9D"]);

    const inspection = await inspectDocument(reader, aVerification(), documentBytes("pdf", 1024));

    expect(inspection).toEqual({
      checks: [
        { name: "upload_present", outcome: "passed", ...detail("The document is stored", "document_stored") },
        {
          name: "size_matches",
          outcome: "passed",
          ...detail("1024 bytes, as declared", "size_as_declared", { bytes: 1024 }),
        },
        {
          name: "file_type_allowed",
          outcome: "passed",
          ...detail("The content is PDF", "file_type_is", { file_type: "PDF" }),
        },
        {
          name: "document_readable",
          outcome: "passed",
          ...detail("The PDF opens", "document_opens", { file_type: "PDF" }),
        },
      ],
      fileType: "pdf",
      content: pageContent(["Barkod No : YOK-7Q4M-2K9D"], ["YOK-7Q4M-2K9D"]),
    });
    expect(reader.opened).toEqual(["pdf"]);
  });

  it.each([
    ["jpeg", "JPEG"],
    ["png", "PNG"],
  ] as const)("opens a %s by the type its bytes show", async (type, shown) => {
    const reader = new ScriptedReader();

    const inspection = await inspectDocument(reader, aVerification({ file_size_bytes: 64 }), documentBytes(type, 64));

    expect(inspection.checks[2]).toEqual({
      name: "file_type_allowed",
      outcome: "passed",
      ...detail(`The content is ${shown}`, "file_type_is", { file_type: shown }),
    });
    expect(reader.opened).toEqual([type]);
  });

  it("fails document_missing when nothing is stored, skipping every later check", async () => {
    const reader = new ScriptedReader();

    const inspection = await inspectDocument(reader, aVerification(), undefined);

    expect(inspection).toEqual({
      failureCode: "document_missing",
      checks: [
        {
          name: "upload_present",
          outcome: "failed",
          ...detail("No document is stored for this verification", "document_not_stored"),
        },
        { name: "size_matches", outcome: "skipped", ...SKIPPED },
        { name: "file_type_allowed", outcome: "skipped", ...SKIPPED },
        { name: "document_readable", outcome: "skipped", ...SKIPPED },
      ],
    });
    expect(reader.opened).toEqual([]);
  });

  it("fails file_size_mismatch for a document of another size, without opening it", async () => {
    const reader = new ScriptedReader();

    const inspection = await inspectDocument(reader, aVerification(), documentBytes("pdf", 1023));

    expect(inspection.failureCode).toBe("file_size_mismatch");
    expect(inspection.checks.map((check) => [check.name, check.outcome])).toEqual([
      ["upload_present", "passed"],
      ["size_matches", "failed"],
      ["file_type_allowed", "skipped"],
      ["document_readable", "skipped"],
    ]);
    expect(inspection.checks[1]?.detail).toBe("The document has 1023 bytes, not the declared 1024");
    expect(reader.opened).toEqual([]);
  });

  it("fails unsupported_file_type for content of a type the document type does not accept", async () => {
    const reader = new ScriptedReader();

    const inspection = await inspectDocument(reader, aVerification(), documentBytes("gif", 1024));

    expect(inspection.failureCode).toBe("unsupported_file_type");
    expect(inspection.checks.map((check) => [check.name, check.outcome])).toEqual([
      ["upload_present", "passed"],
      ["size_matches", "passed"],
      ["file_type_allowed", "failed"],
      ["document_readable", "skipped"],
    ]);
    expect(inspection.checks[2]?.detail).toBe("The content is not a file type YOK_STUDENT accepts");
    expect(reader.opened).toEqual([]);
  });

  it("fails document_unreadable with the reader's reason when the document does not open", async () => {
    const reader = new ScriptedReader({ code: "pdf_too_many_pages", params: { max_pages: 50 } });

    const inspection = await inspectDocument(reader, aVerification(), documentBytes("pdf", 1024));

    expect(inspection.failureCode).toBe("document_unreadable");
    expect(inspection.checks.at(-1)).toEqual({
      name: "document_readable",
      outcome: "failed",
      detail: "The PDF has more than 50 pages",
      detail_code: "pdf_too_many_pages",
      detail_params: { max_pages: 50 },
    });
    expect(inspection.checks.map((check) => check.outcome)).toEqual(["passed", "passed", "passed", "failed"]);
  });
});
