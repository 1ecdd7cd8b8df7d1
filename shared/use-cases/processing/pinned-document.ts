import { evidenceKey, type VerificationItem } from "../../domain/verification.ts";
import type { DocumentStore } from "../../ports/document-store.ts";

/**
 * The document that was confirmed: the copy pinned at confirm, at a key no upload URL names. A
 * verification confirmed before uploads were pinned has none yet: its upload is pinned now, so
 * what is checked stays what was checked. With nothing uploaded there is nothing to read (the
 * checks then report the document missing).
 */
export async function pinnedDocument(
  documents: Pick<DocumentStore, "read" | "size" | "copy">,
  item: Pick<VerificationItem, "verification_id" | "object_key">,
): Promise<Uint8Array | undefined> {
  const pinned = evidenceKey(item.verification_id);
  const document = await documents.read(pinned);
  if (document || (await documents.size(item.object_key)) === undefined) return document;
  await documents.copy(item.object_key, pinned);
  return documents.read(pinned);
}
