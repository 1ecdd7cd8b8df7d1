import {
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
  QueryCommand,
  type QueryCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { AUDIT_TABLE } from "../declarations/tables.ts";
import { AUDIT_RETENTION_SECONDS, auditMonth, type ChainedRecord, type ChainLink, nextLink } from "../domain/audit.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { AuditChain, AuditFilter, AuditTrail } from "../ports/audit-trail.ts";
import { queryWithMore } from "./dynamodb-pages.ts";
import { type AuditLinker, type WriteItem, writeTogether } from "./dynamodb-writes.ts";

/** How far back an unfiltered listing reads: the trail's whole retention, month by month. */
const RETENTION_MONTHS = 25;

/** Stored beside a record: its keys, its expiry and its link in the month's chain; never part of what the API shows. */
interface StoredRecord extends AuditRecord {
  month: string;
  actor_sub: string;
  expires_at_epoch: number;
  chain_seq: number;
  chain_prev: string;
  chain_hash: string;
}

function storedOf(item: Record<string, unknown>): ChainedRecord {
  const {
    month: _month,
    actor_sub: _actor,
    expires_at_epoch: _expiry,
    chain_seq: seq,
    chain_prev: prev,
    chain_hash: hash,
    ...record
  } = item as unknown as StoredRecord;
  return { record, link: { seq, prev, hash } };
}

const recordOf = (item: Record<string, unknown>): AuditRecord => storedOf(item).record;

/** Where a month's chain ends: the last link, in a partition of its own beside the month's records. */
const headKey = (month: string) => ({ month: `chain#${month}`, audit_id: "head" });

/** The month before `month` (`YYYY-MM`). */
function previousMonth(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - 1);
  return date.toISOString().slice(0, 7);
}

/**
 * The audit table: records partitioned by month, with an index per verification and per actor;
 * each month's records chained (`domain/audit.ts`), its head beside them. The other stores write
 * a change and its record together through `linkItems`.
 */
export class DynamoDbAuditTrail implements AuditTrail, AuditChain, AuditLinker {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Keeps `record` at the end of its month's chain; never replaces one. */
  async append(record: AuditRecord): Promise<void> {
    await writeTogether(this.db, [], { linker: this, record });
  }

  /**
   * The record's item linked after the month's head as read now, and the head moved to it: a
   * transaction holding both fails when another record took the head first.
   */
  async linkItems(record: AuditRecord): Promise<WriteItem[]> {
    const month = auditMonth(record.audit_id);
    const head = await this.head(month);
    const link = nextLink(record, head);
    const item: StoredRecord = {
      ...record,
      month,
      actor_sub: record.actor.sub,
      expires_at_epoch: Math.floor(Date.parse(record.at) / 1000) + AUDIT_RETENTION_SECONDS,
      chain_seq: link.seq,
      chain_prev: link.prev,
      chain_hash: link.hash,
    };
    return [
      { Put: { TableName: this.table, Item: item, ConditionExpression: "attribute_not_exists(audit_id)" } },
      {
        Put: {
          TableName: this.table,
          Item: { ...headKey(month), seq: link.seq, hash: link.hash, last: record.audit_id },
          ConditionExpression: head ? "seq = :seen" : "attribute_not_exists(audit_id)",
          ...(head ? { ExpressionAttributeValues: { ":seen": head.seq } } : {}),
        },
      },
    ];
  }

  /** The month's last link, read consistently; undefined before its first record. */
  async head(month: string): Promise<Pick<ChainLink, "seq" | "hash"> | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.table, Key: headKey(month), ConsistentRead: true }),
    );
    return Item ? { seq: Number(Item.seq), hash: String(Item.hash) } : undefined;
  }

  /** Every record of the month with its link, as kept. */
  async chained(month: string): Promise<ChainedRecord[]> {
    const records: ChainedRecord[] = [];
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
    for await (const page of pages) records.push(...(page.Items ?? []).map(storedOf));
    return records;
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
