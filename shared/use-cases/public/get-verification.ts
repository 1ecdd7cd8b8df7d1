import { VerificationNotFoundError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import { UPLOAD_URL_SECONDS, visibleStatus } from "../../domain/state.ts";
import { isoSeconds } from "../../domain/time.ts";
import { toResource, type VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

/** The app's own verification, read consistently; unknown, malformed and another app's ids read not found alike. */
export async function appVerification(
  verifications: Pick<VerificationStore, "get">,
  input: { appId: string; verificationId: string },
): Promise<VerificationItem> {
  const item = isId("verification", input.verificationId) ? await verifications.get(input.verificationId) : undefined;
  if (!item || item.app_id !== input.appId) throw new VerificationNotFoundError();
  return item;
}

/**
 * The app's own verification as the client sees it now, with a fresh upload URL while the
 * upload is awaited. An unknown id, a malformed one and another app's id all read not found,
 * so nothing leaks about what exists.
 */
export async function getVerification(
  deps: { verifications: Pick<VerificationStore, "get">; documents: Pick<DocumentStore, "presignPut">; clock: Clock },
  input: { appId: string; verificationId: string },
): Promise<VerificationResource> {
  const item = await appVerification(deps.verifications, input);
  const now = deps.clock.now();
  const nowIso = isoSeconds(now);
  // A verification by its keys awaits no upload (it is awaiting one only while it is being created).
  const { media_type, file_size_bytes } = item;
  if (
    visibleStatus(item.status, item.upload_deadline, nowIso) !== "awaiting_upload" ||
    media_type === undefined ||
    file_size_bytes === undefined
  ) {
    return toResource(item, nowIso);
  }
  // A URL never outlives the upload deadline.
  const untilDeadline = (Date.parse(item.upload_deadline) - now.getTime()) / 1000;
  const lifetime = Math.min(UPLOAD_URL_SECONDS, untilDeadline);
  const upload = await deps.documents.presignPut(item.object_key, media_type, file_size_bytes, now, lifetime);
  return toResource(item, nowIso, upload);
}
