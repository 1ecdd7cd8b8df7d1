import { VerificationNotFoundError } from "../errors.ts";
import { isId } from "../ids.ts";
import { UPLOAD_URL_SECONDS, visibleStatus } from "../state.ts";
import { isoSeconds, nowSeconds } from "../time.ts";
import type { UploadStore } from "../upload-store.ts";
import { toResource, type VerificationItem, type VerificationResource } from "../verification.ts";
import type { VerificationStore } from "../verification-store.ts";

/**
 * The app's own verification, or not found: an unknown id, a malformed one and another
 * app's id all read the same, so nothing leaks about what exists.
 */
export async function findOwnVerification(
  verifications: VerificationStore,
  appId: string,
  id: string,
): Promise<VerificationItem> {
  const item = isId("verification", id) ? await verifications.get(id) : undefined;
  if (!item || item.app_id !== appId) throw new VerificationNotFoundError();
  return item;
}

/** The resource as the client sees it now; a fresh upload URL while the upload is awaited. */
export async function presentVerification(uploads: UploadStore, item: VerificationItem): Promise<VerificationResource> {
  const now = nowSeconds();
  const nowIso = isoSeconds(now);
  if (visibleStatus(item.status, item.upload_deadline, nowIso) !== "awaiting_upload") {
    return toResource(item, nowIso);
  }
  // A URL never outlives the upload deadline.
  const untilDeadline = (Date.parse(item.upload_deadline) - now.getTime()) / 1000;
  const lifetime = Math.min(UPLOAD_URL_SECONDS, untilDeadline);
  const upload = await uploads.presignPut(item.object_key, item.media_type, item.file_size_bytes, now, lifetime);
  return toResource(item, nowIso, upload);
}

export async function getVerification(
  deps: { verifications: VerificationStore; uploads: UploadStore },
  input: { appId: string; verificationId: string },
): Promise<VerificationResource> {
  const item = await findOwnVerification(deps.verifications, input.appId, input.verificationId);
  return presentVerification(deps.uploads, item);
}
