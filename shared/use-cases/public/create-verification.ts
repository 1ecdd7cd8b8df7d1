import { FILE_TYPES, fileTypeOfName } from "../../domain/document-types.ts";
import type { Environment } from "../../domain/environments.ts";
import { newId } from "../../domain/ids.ts";
import type { NewVerification } from "../../domain/new-verification.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import { UPLOAD_DEADLINE_SECONDS, UPLOAD_URL_SECONDS } from "../../domain/state.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import { documentKey, toResource, type VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

export interface CreateVerificationInput {
  appId: string;
  environment: Environment;
  request: NewVerification;
}

export interface CreateVerificationDeps {
  verifications: Pick<VerificationStore, "create">;
  documents: Pick<DocumentStore, "presignPut">;
  clock: Clock;
  /** How long the record is kept after its creation. */
  retentionDays: number;
}

/** Stores a new verification awaiting its upload and returns it with a presigned upload URL. */
export async function createVerification(
  deps: CreateVerificationDeps,
  input: CreateVerificationInput,
): Promise<VerificationResource> {
  const now = deps.clock.now();
  const created = isoSeconds(now);
  const deadline = isoSeconds(addSeconds(now, UPLOAD_DEADLINE_SECONDS));
  const id = newId("verification");
  // The body schema has already refused names without an allowed extension.
  const fileType = fileTypeOfName(input.request.original_filename);
  if (!fileType) throw new Error("original_filename passed validation without a known extension");
  const item: VerificationItem = {
    verification_id: id,
    app_id: input.appId,
    environment: input.environment,
    status: "awaiting_upload",
    document_type: input.request.document_type,
    process_type: input.request.process_type,
    external_reference_id: input.request.external_reference_id,
    metadata: input.request.metadata,
    expected_subject: input.request.expected_subject,
    original_filename: input.request.original_filename,
    file_size_bytes: input.request.file_size_bytes,
    media_type: FILE_TYPES[fileType].mediaType,
    object_key: documentKey(id),
    upload_deadline: deadline,
    checks: [],
    reasons: [],
    sequence: 1,
    created_at: created,
    updated_at: created,
  };
  await deps.verifications.create(item, deps.retentionDays);
  const upload = await deps.documents.presignPut(
    item.object_key,
    item.media_type,
    item.file_size_bytes,
    now,
    UPLOAD_URL_SECONDS,
  );
  return toResource(item, created, upload);
}
