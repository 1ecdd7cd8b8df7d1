/** An app's verifications, newest first, filtered: the public list and the portal's search. */
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import { type VerificationListQuery, verificationPositionSchema } from "../../domain/searches.ts";
import { isoSeconds } from "../../domain/time.ts";
import { toResource } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

export type ListedVerification = Omit<VerificationResource, "upload">;

export async function listVerifications(
  deps: { verifications: Pick<VerificationStore, "listForApp">; clock: Clock },
  appId: string,
  query: VerificationListQuery,
): Promise<{ data: ListedVerification[]; next_cursor: string | null }> {
  const now = isoSeconds(deps.clock.now());
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, verificationPositionSchema);
  const { items, last } = await deps.verifications.listForApp(
    {
      appId,
      reference: query.external_reference_id,
      status: query.status,
      createdAfter: query.created_after,
      createdBefore: query.created_before,
      now,
    },
    query.limit,
    after,
  );
  // Lists carry no upload instructions: fetch the verification for fresh ones.
  return { data: items.map((item) => toResource(item, now)), next_cursor: last ? encodeCursor(last) : null };
}
