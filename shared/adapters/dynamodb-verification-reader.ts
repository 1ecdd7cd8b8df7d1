/**
 * One verification read by its id, apart from the store's writes and listings: the one read a
 * fetch makes, so a function that only reads carries this and not the whole store.
 */
import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { VERIFICATIONS_TABLE } from "../declarations/tables.ts";
import type { VerificationItem } from "../domain/verification.ts";
import type { VerificationStore } from "../ports/verification-store.ts";

const { indexes } = VERIFICATIONS_TABLE;

/**
 * The attributes only this table needs, kept beside a verification and never shown to the
 * callers: the sparse keys of its indexes and the record's expiry (TTL).
 */
const STORED_ONLY = [
  indexes.awaitingByDeadline.partitionKey.name,
  indexes.inReviewByDeadline.partitionKey.name,
  indexes.byReference.partitionKey.name,
  indexes.erasedByTime.partitionKey.name,
  VERIFICATIONS_TABLE.ttlAttribute,
] as const;

/** A verification as the callers know it: without what only the table needs. */
export function fromStored(stored: Record<string, unknown> | undefined): VerificationItem | undefined {
  if (!stored) return undefined;
  const item = { ...stored };
  for (const name of STORED_ONLY) delete item[name];
  return item as unknown as VerificationItem;
}

export class DynamoDbVerificationReader implements Pick<VerificationStore, "get"> {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(id: string): Promise<VerificationItem | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { verification_id: id }, ConsistentRead: true }),
    );
    return fromStored(Item);
  }
}
