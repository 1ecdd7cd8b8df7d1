import { evidenceKey, type VerificationItem } from "../domain/verification.ts";
import type { DocumentStore } from "../ports/document-store.ts";

/**
 * Pins the upload as the evidence: a copy at a key no upload URL names. The first pin wins, so
 * what was checked stays what was checked; with nothing uploaded there is nothing to pin (the
 * checks then report the document missing).
 */
export async function pinEvidence(
  documents: Pick<DocumentStore, "size" | "copy">,
  item: Pick<VerificationItem, "verification_id" | "object_key">,
): Promise<void> {
  const pinned = evidenceKey(item.verification_id);
  if ((await documents.size(pinned)) !== undefined) return;
  if ((await documents.size(item.object_key)) === undefined) return;
  await documents.copy(item.object_key, pinned);
}
