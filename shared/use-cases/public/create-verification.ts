import { FILE_TYPES, fileTypeOfName } from "../../domain/document-types.ts";
import type { Environment } from "../../domain/environments.ts";
import { newId } from "../../domain/ids.ts";
import type { NewVerification } from "../../domain/new-verification.ts";
import type { RequestToKeep } from "../../domain/requests.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import { UPLOAD_DEADLINE_SECONDS, UPLOAD_URL_SECONDS } from "../../domain/state.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import { documentKey, toResource, type VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { Sealer } from "../../ports/sealer.ts";
import type { SubjectDigest } from "../../ports/subject-digest.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

export interface CreateVerificationInput {
  appId: string;
  environment: Environment;
  request: NewVerification;
  /** The API request, whose record the verification's creation carries into the request log. */
  logged?: RequestToKeep;
}

export interface CreateVerificationDeps {
  verifications: Pick<VerificationStore, "create" | "transition">;
  documents: Pick<DocumentStore, "presignPut">;
  /** Seals the identity number of a verification by `document_keys`, the verification as context. */
  sealer: Pick<Sealer, "seal">;
  /** The keyed digest the expected identity number is kept as. */
  subjects: SubjectDigest;
  clock: Clock;
  /** How long the record is kept after its creation. */
  retentionDays: number;
}

/** What the item keeps of `expected_subject`: the identity number only as its digest. */
async function expectedSubject(
  subjects: SubjectDigest,
  expected: NewVerification["expected_subject"],
): Promise<VerificationItem["expected_subject"]> {
  if (!expected) return undefined;
  const { identity_number, ...rest } = expected;
  return identity_number === undefined
    ? rest
    : { ...rest, identity_number_digest: await subjects.digest(identity_number) };
}

/**
 * Stores a new verification. With a file: awaiting its upload, returned with a presigned upload
 * URL. With `document_keys`: no upload, the identity number sealed, and moved on at once to
 * `processing` by the same change of state a confirmed upload makes (its event, webhook and
 * issuer lookup follow from it as from a confirm).
 */
export async function createVerification(
  deps: CreateVerificationDeps,
  input: CreateVerificationInput,
): Promise<VerificationResource> {
  const { request } = input;
  const now = deps.clock.now();
  const created = isoSeconds(now);
  const deadline = isoSeconds(addSeconds(now, UPLOAD_DEADLINE_SECONDS));
  const id = newId("verification");
  const base = {
    verification_id: id,
    app_id: input.appId,
    environment: input.environment,
    status: "awaiting_upload",
    document_type: request.document_type,
    process_type: request.process_type,
    external_reference_id: request.external_reference_id,
    metadata: request.metadata,
    expected_subject: await expectedSubject(deps.subjects, request.expected_subject),
    max_document_age_days: request.max_document_age_days,
    object_key: documentKey(id),
    upload_deadline: deadline,
    checks: [],
    reasons: [],
    sequence: 1,
    created_at: created,
    updated_at: created,
  } satisfies VerificationItem;
  const logged = input.logged?.recordOf(id);
  const store = async (item: VerificationItem) => {
    await deps.verifications.create(item, deps.retentionDays, logged);
    if (logged) input.logged?.kept(logged);
  };

  if (request.document_keys) {
    const { barcode, identity_number } = request.document_keys;
    const sealed = await deps.sealer.seal(identity_number, { appId: input.appId, verificationId: id });
    const item: VerificationItem = { ...base, submitted_keys: { barcode, identity_number_sealed: sealed } };
    await store(item);
    const outcome = await deps.verifications.transition({
      id,
      from: "awaiting_upload",
      to: "processing",
      now: created,
      expect: { sequence: 1 },
    });
    if (!outcome.applied) throw new Error("A verification by its keys did not start processing as it was created");
    return toResource(outcome.item, created);
  }

  // The body schema has required the file's name and size, and refused names without an allowed extension.
  const { original_filename, file_size_bytes } = request;
  if (original_filename === undefined || file_size_bytes === undefined) {
    throw new Error("A create passed validation with neither document_keys nor a file");
  }
  const fileType = fileTypeOfName(original_filename);
  if (!fileType) throw new Error("original_filename passed validation without a known extension");
  const item: VerificationItem = {
    ...base,
    original_filename,
    file_size_bytes,
    media_type: FILE_TYPES[fileType].mediaType,
  };
  await store(item);
  const upload = await deps.documents.presignPut(
    item.object_key,
    FILE_TYPES[fileType].mediaType,
    file_size_bytes,
    now,
    UPLOAD_URL_SECONDS,
  );
  return toResource(item, created, upload);
}
