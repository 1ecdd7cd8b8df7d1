/**
 * The checks every verification runs on its document, in order. A failed check stops the
 * ones after it (they read `skipped`), and names why the file could not be processed.
 */
import { type CheckDetail, checkDetail } from "../../domain/check-details.ts";
import { acceptsFileType, type FileType, sniffFileType } from "../../domain/document-types.ts";

import type { StoredCheck, VerificationItem } from "../../domain/verification.ts";
import type { DocumentContent, DocumentReader } from "../../ports/document-reader.ts";

export type Inspection =
  | { checks: StoredCheck[]; fileType: FileType; content: DocumentContent; failureCode?: undefined }
  /** The file could not be processed: the verification fails with this code. */
  | { checks: StoredCheck[]; failureCode: string };

export async function inspectDocument(
  reader: DocumentReader,
  item: VerificationItem,
  bytes: Uint8Array | undefined,
): Promise<Inspection> {
  const checks: StoredCheck[] = [];
  const fail = (name: string, detail: CheckDetail, failureCode: string): Inspection => {
    checks.push({ name, outcome: "failed", ...detail });
    for (const later of ["upload_present", "size_matches", "file_type_allowed", "document_readable"].slice(
      checks.length,
    )) {
      checks.push({ name: later, outcome: "skipped", ...checkDetail("not_run_earlier_failed") });
    }
    return { checks, failureCode };
  };

  if (!bytes) return fail("upload_present", checkDetail("document_not_stored"), "document_missing");
  checks.push({ name: "upload_present", outcome: "passed", ...checkDetail("document_stored") });

  if (bytes.length !== item.file_size_bytes) {
    return fail(
      "size_matches",
      checkDetail("size_differs", { bytes: bytes.length, declared_bytes: item.file_size_bytes ?? 0 }),
      "file_size_mismatch",
    );
  }
  checks.push({ name: "size_matches", outcome: "passed", ...checkDetail("size_as_declared", { bytes: bytes.length }) });

  const fileType = sniffFileType(bytes);
  if (!fileType || !acceptsFileType(item.document_type, fileType)) {
    return fail(
      "file_type_allowed",
      checkDetail("file_type_refused", { document_type: item.document_type }),
      "unsupported_file_type",
    );
  }
  const named = { file_type: fileType.toUpperCase() };
  checks.push({ name: "file_type_allowed", outcome: "passed", ...checkDetail("file_type_is", named) });

  const read = await reader.read(fileType, bytes);
  if (!read.readable)
    return fail("document_readable", checkDetail(read.reason.code, read.reason.params), "document_unreadable");
  checks.push({ name: "document_readable", outcome: "passed", ...checkDetail("document_opens", named) });
  return { checks, fileType, content: read.content };
}
