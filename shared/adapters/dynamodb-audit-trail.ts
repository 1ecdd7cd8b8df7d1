import { type DynamoDBDocumentClient, PutCommand, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { AUDIT_TABLE } from "../declarations/tables.ts";
import { AUDIT_RETENTION_SECONDS, auditMonth } from "../domain/audit.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { AuditFilter, AuditTrail } from "../ports/audit-trail.ts";
import { queryWithMore } from "./dynamodb-pages.ts";

/** How far back an unfiltered listing reads: the trail's whole retention, month by month. */
const RETENTION_MONTHS = 25;

/** Stored beside a record: its keys and its expiry; never part of what the API shows. */
interface StoredRecord extends AuditRecord {
  month: string;
  actor_sub: string;
  expires_at_epoch: number;
}

function recordOf(item: Record<string, unknown>): AuditRecord {
  const { month: _month, actor_sub: _actor, expires_at_epoch: _expiry, ...record } = item as unknown as StoredRecord;
  return record;
}

/** The month before `month` (`YYYY-MM`). */
function previousMonth(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - 1);
  return date.toISOString().slice(0, 7);
}

/** The audit table: records partitioned by month, with an index per verification and per actor. */
export class DynamoDbAuditTrail implements AuditTrail {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async append(record: AuditRecord): Promise<void> {
    const item: StoredRecord = {
      ...record,
      month: auditMonth(record.audit_id),
      actor_sub: record.actor.sub,
      expires_at_epoch: Math.floor(Date.parse(record.at) / 1000) + AUDIT_RETENTION_SECONDS,
    };
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: item, ConditionExpression: "attribute_not_exists(audit_id)" }),
    );
  }

  async page(filter: AuditFilter, limit: number, before?: string): Promise<{ records: AuditRecord[]; more: boolean }> {
    if ("verificationId" in filter) return this.indexPage("byVerification", filter.verificationId, limit, before);
    if ("actorSub" in filter) return this.indexPage("byActor", filter.actorSub, limit, before);
    return this.monthsPage(limit, before);
  }

  private async indexPage(
    index: keyof typeof AUDIT_TABLE.indexes,
    value: string,
    limit: number,
    before?: string,
  ): Promise<{ records: AuditRecord[]; more: boolean }> {
    const { indexName, partitionKey } = AUDIT_TABLE.indexes[index];
    const { items, more } = await queryWithMore<Record<string, unknown>>(this.db, limit, {
      TableName: this.table,
      ScanIndexForward: false,
      IndexName: indexName,
      KeyConditionExpression: "#key = :value",
      ExpressionAttributeNames: { "#key": partitionKey.name },
      ExpressionAttributeValues: { ":value": value },
      ...(before
        ? { ExclusiveStartKey: { month: auditMonth(before), audit_id: before, [partitionKey.name]: value } }
        : {}),
    });
    return { records: items.map(recordOf), more };
  }

  /** Newest month first, until the page is full or the retention is read. */
  private async monthsPage(limit: number, before?: string): Promise<{ records: AuditRecord[]; more: boolean }> {
    const records: AuditRecord[] = [];
    let month = before ? auditMonth(before) : this.now().toISOString().slice(0, 7);
    let start = before;
    for (let read = 0; read < RETENTION_MONTHS; read += 1) {
      const items = await this.query({
        KeyConditionExpression: "#month = :month",
        ExpressionAttributeNames: { "#month": "month" },
        ExpressionAttributeValues: { ":month": month },
        Limit: limit - records.length + 1,
        ...(start ? { ExclusiveStartKey: { month, audit_id: start } } : {}),
      });
      records.push(...items.map(recordOf));
      if (records.length > limit) return { records: records.slice(0, limit), more: true };
      month = previousMonth(month);
      start = undefined;
    }
    return { records, more: false };
  }

  private async query(input: Omit<QueryCommandInput, "TableName">): Promise<Record<string, unknown>[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({ TableName: this.table, ScanIndexForward: false, ...input }),
    );
    return Items;
  }
}
