import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, PutCommand, paginateQuery, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { AuditDigest, SignedDigest } from "../domain/audit-digests.ts";
import type { AuditDigests } from "../ports/audit-trail.ts";

/** A digest as the table keeps it: partitioned by month, sorted by place; records as `id:print`. */
interface StoredDigest {
  month: string;
  seq: number;
  prev: string;
  sealed_at: string;
  records: string[];
  closes: boolean;
  signature: string;
}

function storedOf(signed: SignedDigest): StoredDigest {
  const { digest, signature } = signed;
  return { ...digest, records: digest.records.map((record) => `${record.audit_id}:${record.print}`), signature };
}

function digestOf(item: Record<string, unknown>): SignedDigest {
  const { month, seq, prev, sealed_at, records, closes, signature } = item as unknown as StoredDigest;
  const digest: AuditDigest = {
    month: String(month),
    seq: Number(seq),
    prev: String(prev),
    sealed_at: String(sealed_at),
    records: (Array.isArray(records) ? records : []).map((line) => {
      const [audit_id = "", print = ""] = String(line).split(":");
      return { audit_id, print };
    }),
    closes: closes === true,
  };
  return { digest, signature: String(signature) };
}

/**
 * The digests table: only the sealer's role may put (never replace) a digest; everyone else,
 * writers of records included, may at most read it.
 */
export class DynamoDbAuditDigests implements AuditDigests {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async digests(month: string): Promise<SignedDigest[]> {
    const digests: SignedDigest[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        KeyConditionExpression: "#month = :month",
        ExpressionAttributeNames: { "#month": "month" },
        ExpressionAttributeValues: { ":month": month },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) digests.push(...(page.Items ?? []).map(digestOf));
    return digests;
  }

  async last(month: string): Promise<SignedDigest | undefined> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "#month = :month",
        ExpressionAttributeNames: { "#month": "month" },
        ExpressionAttributeValues: { ":month": month },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return Items[0] ? digestOf(Items[0]) : undefined;
  }

  async keep(signed: SignedDigest): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: storedOf(signed),
          ConditionExpression: "attribute_not_exists(seq)",
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
