/**
 * The checks every verification runs on its document, in order. A failed check stops the
 * ones after it (they read `skipped`), and names why the file could not be processed.
 */
import { acceptsFileType, type FileType, sniffFileType } from "../../domain/document-types.ts";
import type { Check } from "../../domain/responses/verification.ts";
import type { VerificationItem } from "../../domain/verification.ts";
import type { DocumentContent, DocumentReader } from "../../ports/document-reader.ts";

export type Inspection =
  | { checks: Check[]; fileType: FileType; content: DocumentContent; failureCode?: undefined }
  /** The file could not be processed: the verification fails with this code. */
  | { checks: Check[]; failureCode: string };

export async function inspectDocument(
  reader: DocumentReader,
  item: VerificationItem,
  bytes: Uint8Array | undefined,
): Promise<Inspection> {
  const checks: Check[] = [];
  const fail = (name: string, detail: string, failureCode: string): Inspection => {
    checks.push({ name, outcome: "failed", detail });
    for (const later of ["upload_present", "size_matches", "file_type_allowed", "document_readable"].slice(
      checks.length,
    )) {
      checks.push({ name: later, outcome: "skipped", detail: "Not run: an earlier check failed" });
    }
    return { checks, failureCode };
  };

  if (!bytes) return fail("upload_present", "No document is stored for this verification", "document_missing");
  checks.push({ name: "upload_present", outcome: "passed", detail: "The document is stored" });

  if (bytes.length !== item.file_size_bytes) {
    return fail(
      "size_matches",
      `The document has ${bytes.length} bytes, not the declared ${item.file_size_bytes}`,
      "file_size_mismatch",
    );
  }
  checks.push({ name: "size_matches", outcome: "passed", detail: `${bytes.length} bytes, as declared` });

  const fileType = sniffFileType(bytes);
  if (!fileType || !acceptsFileType(item.document_type, fileType)) {
    return fail(
      "file_type_allowed",
      `The content is not a file type ${item.document_type} accepts`,
      "unsupported_file_type",
    );
  }
  checks.push({ name: "file_type_allowed", outcome: "passed", detail: `The content is ${fileType.toUpperCase()}` });

  const read = await reader.read(fileType, bytes);
  if (!read.readable) return fail("document_readable", read.reason, "document_unreadable");
  checks.push({ name: "document_readable", outcome: "passed", detail: `The ${fileType.toUpperCase()} opens` });
  return { checks, fileType, content: read.content };
}
