import { acceptsFileType, DOCUMENT_TYPE_CODES, SNIFF_BYTES, sniffFileType } from "../../domain/document-types.ts";
import { RefusedError, VerificationNotFoundError } from "../../domain/errors.ts";
import { type TransitionGuard, uploadMismatch } from "../../domain/guards.ts";
import { isId } from "../../domain/ids.ts";
import type { RequestToKeep } from "../../domain/requests.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import { visibleStatus } from "../../domain/state.ts";
import { isoSeconds } from "../../domain/time.ts";
import { documentKey, evidenceKey, toResource, type VerificationItem } from "../../domain/verification.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { Log } from "../../ports/log.ts";
import { type ProcessDeps, processVerification } from "../processing/process-verification.ts";
import { decidedWithin } from "./await-decision.ts";

/** What a confirm needs: the upload's first bytes, and for `sync` what processing needs. */
export type ConfirmDeps = ProcessDeps & {
  documents: Pick<DocumentStore, "size" | "firstBytes" | "delete" | "copy">;
  log: Log;
  sleep: (ms: number) => Promise<void>;
};

/** What was uploaded, as the confirm's rule (`guards.ts`) states it: its size and the document types its bytes suit. */
type Upload = NonNullable<TransitionGuard["upload"]>;

type Judgement =
  | { kind: "current"; item: VerificationItem }
  | { kind: "acceptable"; item: VerificationItem; upload: Upload };

/**
 * Why the upload of `item` can or cannot start processing. Every row of the contract's
 * confirm table is decided here; what the write then holds to is the same rule (`guards.ts`).
 */
async function judge(
  documents: Pick<DocumentStore, "delete">,
  appId: string,
  item: VerificationItem | undefined,
  upload: Upload | undefined,
  now: string,
): Promise<Judgement> {
  if (!item || item.app_id !== appId) throw new VerificationNotFoundError();
  const status = visibleStatus(item.status, item.upload_deadline, now);
  if (status === "expired") {
    throw new RefusedError("verification_expired", "The upload deadline has passed; create a new verification");
  }
  if (status !== "awaiting_upload") return { kind: "current", item };
  if (!upload) {
    throw new RefusedError("upload_not_found", "No document has been uploaded yet; PUT it to the upload URL first");
  }
  const mismatch = uploadMismatch(item, upload, now);
  if (mismatch === "size") {
    await documents.delete(item.object_key);
    throw new RefusedError(
      "file_size_mismatch",
      `The uploaded file has ${upload.size} bytes, not file_size_bytes (${item.file_size_bytes}); upload it again`,
    );
  }
  if (mismatch === "type") {
    await documents.delete(item.object_key);
    throw new RefusedError(
      "unsupported_file_type",
      `The uploaded file's content is not a type ${item.document_type} accepts; upload it again`,
    );
  }
  if (mismatch !== undefined) throw new Error(`A confirm passed the ${mismatch} check it failed`);
  return { kind: "acceptable", item, upload };
}

/**
 * The verification once it is decided within the sync wait; else undefined (the pipeline
 * finishes it). The checks run here; what waits for the issuer is decided by the issuer queue's
 * reader, so the verification is read again until then.
 */
function processWithin(deps: ConfirmDeps, item: VerificationItem): Promise<VerificationItem | undefined> {
  // The upload is confirmed either way: if the checks fail to run here, the pipeline runs them.
  const processing = processVerification(deps, item.verification_id).catch((error: unknown) => {
    deps.log.error("sync processing failed; the pipeline will finish it", {
      error: error as Error,
      verification_id: item.verification_id,
    });
    return undefined;
  });
  return decidedWithin(deps, item.verification_id, processing);
}

/**
 * Confirms the upload: the object exists, has the declared size and starts with an allowed
 * type's bytes; the caller's verification awaits it; then the upload is pinned as the evidence
 * and the verification moves to `processing` (and, for `sync`, on through the checks). A
 * confirm of a verification already past `awaiting_upload` answers its current state and
 * changes nothing.
 */
export async function confirmUpload(
  deps: ConfirmDeps,
  /** `logged`: the API request, whose record the change of state carries into the request log. */
  input: { appId: string; verificationId: string; logged?: RequestToKeep },
): Promise<VerificationResource> {
  if (!isId("verification", input.verificationId)) throw new VerificationNotFoundError();
  const now = isoSeconds(deps.clock.now());
  const key = documentKey(input.verificationId);
  const size = await deps.documents.size(key);
  const fileType = size === undefined ? undefined : sniffFileType(await deps.documents.firstBytes(key, SNIFF_BYTES));
  const upload: Upload | undefined =
    size === undefined
      ? undefined
      : {
          appId: input.appId,
          size,
          documentTypes: fileType ? DOCUMENT_TYPE_CODES.filter((type) => acceptsFileType(type, fileType)) : [],
        };

  const seen = await deps.verifications.get(input.verificationId);
  const first = await judge(deps.documents, input.appId, seen, upload, now);
  if (first.kind === "current") return toResource(first.item, now);
  // Pinned once the owner is known and before processing can start, so the checks never meet
  // an evidence copy still being made, and a second PUT with the still-valid URL changes nothing.
  // Copied afresh: an earlier confirm whose change of state failed may have left an older copy.
  await deps.documents.copy(key, evidenceKey(input.verificationId));
  const logged = input.logged?.recordOf(input.verificationId);
  const outcome = await deps.verifications.transition({
    id: input.verificationId,
    from: "awaiting_upload",
    to: "processing",
    now,
    // The rule `judge` applied, held again by the write: nothing changed it meanwhile.
    expect: { upload: first.upload },
    // The item it changes is the one judged, so the write's result is known without reading it.
    seen: first.item,
    logged,
  });
  if (outcome.applied) {
    if (logged) input.logged?.kept(logged);
    const finished = outcome.item.process_type === "sync" ? await processWithin(deps, outcome.item) : undefined;
    return toResource(finished ?? outcome.item, now);
  }
  const judgement = await judge(deps.documents, input.appId, outcome.item, upload, now);
  if (judgement.kind === "current") return toResource(judgement.item, now);
  throw new Error("The transition to processing was refused for no reason the contract names");
}
