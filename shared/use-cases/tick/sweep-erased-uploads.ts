import { UPLOAD_URL_SECONDS } from "../../domain/state.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import { documentKey } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { Log } from "../../ports/log.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

/**
 * How long after the last moment an old upload URL could put a document the tick still looks:
 * the minute until the next tick, and two more for a tick that ran late or was retried.
 */
export const SWEEP_MARGIN_SECONDS = 3 * 60;

/**
 * The last moment an upload URL signed before the erasure could still put a document: each URL
 * lives `UPLOAD_URL_SECONDS` from its signing, never past the upload deadline, and none is signed
 * once the verification is erased.
 */
function lastUploadBy(redactedAt: string, uploadDeadline: string): string {
  const urlEnd = isoSeconds(addSeconds(new Date(redactedAt), UPLOAD_URL_SECONDS));
  return urlEnd < uploadDeadline ? urlEnd : uploadDeadline;
}

/**
 * An erased verification keeps no document, but an upload URL handed out before the erasure
 * stays valid for up to `UPLOAD_URL_SECONDS`: whatever it put is removed by the next tick, and
 * each removal is counted (`UploadsAfterErasure`, with the verification's id and nothing else).
 * Returns how many documents were removed.
 */
export async function sweepErasedUploads(deps: {
  verifications: Pick<VerificationStore, "erasedSince">;
  documents: Pick<DocumentStore, "size" | "delete">;
  log: Pick<Log, "count">;
  clock: Clock;
}): Promise<number> {
  const now = deps.clock.now();
  const nowIso = isoSeconds(now);
  const lookedAfterUntil = isoSeconds(addSeconds(now, -SWEEP_MARGIN_SECONDS));
  const since = isoSeconds(addSeconds(now, -(UPLOAD_URL_SECONDS + SWEEP_MARGIN_SECONDS)));
  let removed = 0;
  await deps.verifications.erasedSince(since, nowIso, async (item) => {
    // Erased long after its upload deadline, or looked after by the ticks before: no URL can reach it now.
    const redactedAt = item.redacted_at;
    if (redactedAt === undefined || lastUploadBy(redactedAt, item.upload_deadline) < lookedAfterUntil) return;
    const key = documentKey(item.verification_id);
    if ((await deps.documents.size(key)) === undefined) return;
    await deps.documents.delete(key);
    removed += 1;
    deps.log.count(
      "UploadsAfterErasure",
      item.environment,
      "a document uploaded after its verification was erased was removed",
      {
        verification_id: item.verification_id,
      },
    );
  });
  return removed;
}
