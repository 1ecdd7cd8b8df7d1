import {
  type DynamoDBDocumentClient,
  PutCommand,
  paginateQuery,
  paginateScan,
  QueryCommand,
} from "@aws-sdk/lib-dynamodb";
import { AUDIT_TABLE } from "../declarations/tables.ts";
import {
  AUDIT_ID_PATTERN,
  AUDIT_RETENTION_MONTHS,
  auditExpiry,
  auditIdsBetween,
  auditMonth,
  auditPrint,
  monthFrom,
  type RecordPrint,
} from "../domain/audit.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { AuditFilter, AuditNarrowing, AuditPrints, AuditStrays, AuditTrail } from "../ports/audit-trail.ts";
import { queryWithMore } from "./dynamodb-pages.ts";
import type { AuditLinker, RecordPut } from "./dynamodb-writes.ts";

/** The ids a listing may show: from `first`, to `last`, older than `before` (each when given), of `action`. */
interface IdRange {
  first?: string;
  last?: string;
  before?: string;
  action?: string;
}

/** A narrowing and a page's cursor as one range of ids; none when together they leave no id. */
function idRange(narrowing: AuditNarrowing, before: string | undefined): IdRange | undefined {
  const ids = auditIdsBetween(narrowing.since ?? new Date(0), narrowing.until ?? new Date(0));
  const first = narrowing.since ? ids.first : undefined;
  const last = narrowing.until ? ids.last : undefined;
  if (before !== undefined && first !== undefined && before <= first) return undefined;
  // A cursor past the range's end starts nothing: the range's end bounds the reading anyway.
  const within = before !== undefined && (last === undefined || before <= last) ? before : undefined;
  return { first, last, before: within, action: narrowing.action };
}

/** The key condition on `partition` and the ids of `range`, and its action as a filter. */
function rangeQuery(partition: { name: string; value: string }, range: IdRange) {
  const ids =
    range.first && range.last
      ? " AND audit_id BETWEEN :first AND :last"
      : range.first
        ? " AND audit_id >= :first"
        : range.last
          ? " AND audit_id <= :last"
          : "";
  return {
    KeyConditionExpression: `#key = :value${ids}`,
    ...(range.action ? { FilterExpression: "#action = :action" } : {}),
    ExpressionAttributeNames: { "#key": partition.name, ...(range.action ? { "#action": "action" } : {}) },
    ExpressionAttributeValues: {
      ":value": partition.value,
      ...(range.first ? { ":first": range.first } : {}),
      ...(range.last ? { ":last": range.last } : {}),
      ...(range.action ? { ":action": range.action } : {}),
    },
  };
}

/** Stored beside a record: its keys and its expiry; never part of what the API shows. */
interface StoredRecord extends AuditRecord {
  month: string;
  actor_sub: string;
  expires_at_epoch: number;
}

/**
 * What is kept beside a record and never shown: its keys and expiry, and the month chain's link
 * that records written before signed digests still carry (sealed with them as stored).
 */
const STORAGE_ONLY = ["month", "actor_sub", "expires_at_epoch", "chain_seq", "chain_prev", "chain_hash"];

function recordOf(item: Record<string, unknown>): AuditRecord {
  const record = { ...item };
  for (const name of STORAGE_ONLY) delete record[name];
  return record as unknown as AuditRecord;
}

/** Whether an item is a record kept in its own month: the only items any listing shows or any digest seals. */
const inItsMonth = (item: Record<string, unknown>): boolean =>
  typeof item.audit_id === "string" && AUDIT_ID_PATTERN.test(item.audit_id) && item.month === auditMonth(item.audit_id);

/**
 * The audit table: records partitioned by month, with an index per verification and per actor.
 * A record is one conditional put, written with the change it records (`linkItems`): writers
 * never wait on one another; the sealer reads the months' prints (`dynamodb-audit-digests.ts`).
 */
export class DynamoDbAuditTrail implements AuditTrail, AuditPrints, AuditStrays, AuditLinker {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Keeps `record`; never replaces one. A record alone is one conditional put: a transaction of
   * one item would cost twice the writes for nothing.
   */
  async append(record: AuditRecord): Promise<void> {
    await this.db.send(new PutCommand(this.recordPut(record)));
  }

  /** Each its own conditional put, all at once: a read's records change nothing to keep together. */
  async appendAll(records: readonly AuditRecord[]): Promise<void> {
    await Promise.all(records.map((record) => this.append(record)));
  }

  /** The put of the record's item, only where no record is. */
  recordPut(record: AuditRecord): RecordPut {
    const item: StoredRecord = {
      ...record,
      month: auditMonth(record.audit_id),
      actor_sub: record.actor.sub,
      expires_at_epoch: auditExpiry(record.audit_id),
    };
    return { TableName: this.table, Item: item, ConditionExpression: "attribute_not_exists(audit_id)" };
  }

  async prints(month: string, after?: string): Promise<RecordPrint[]> {
    const prints: RecordPrint[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        KeyConditionExpression: after ? "#month = :month AND audit_id > :after" : "#month = :month",
        ExpressionAttributeNames: { "#month": "month" },
        ExpressionAttributeValues: { ":month": month, ...(after ? { ":after": after } : {}) },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        if (inItsMonth(item)) prints.push({ audit_id: String(item.audit_id), print: auditPrint(item) });
      }
    }
    return prints;
  }

  async strays(): Promise<string[]> {
    const strays: string[] = [];
    const pages = paginateScan(
      { client: this.db },
      {
        TableName: this.table,
        ProjectionExpression: "#month, audit_id",
        ExpressionAttributeNames: { "#month": "month" },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const id = item.audit_id;
        if (typeof id === "string" && AUDIT_ID_PATTERN.test(id) && !inItsMonth(item)) strays.push(id);
      }
    }
    return strays;
  }

  async page(
    filter: AuditFilter,
    limit: number,
    before?: string,
    narrowing: AuditNarrowing = {},
  ): Promise<{ records: AuditRecord[]; more: boolean }> {
    const range = idRange(narrowing, before);
    if (!range) return { records: [], more: false };
    if ("verificationId" in filter) return this.indexPage("byVerification", filter.verificationId, limit, range);
    if ("actorSub" in filter) return this.indexPage("byActor", filter.actorSub, limit, range);
    return this.monthsPage(limit, range);
  }

  private async indexPage(
    index: keyof typeof AUDIT_TABLE.indexes,
    value: string,
    limit: number,
    range: IdRange,
  ): Promise<{ records: AuditRecord[]; more: boolean }> {
    const { indexName, partitionKey } = AUDIT_TABLE.indexes[index];
    const { items, more } = await queryWithMore<Record<string, unknown>>(this.db, limit, {
      TableName: this.table,
      ScanIndexForward: false,
      IndexName: indexName,
      ...rangeQuery({ name: partitionKey.name, value }, range),
      ...(range.before
        ? { ExclusiveStartKey: { month: auditMonth(range.before), audit_id: range.before, [partitionKey.name]: value } }
        : {}),
    });
    return { records: items.filter(inItsMonth).map(recordOf), more };
  }

  /** Newest month first, from the range's last month to its first, the trail's whole retention at most. */
  private async monthsPage(limit: number, range: IdRange): Promise<{ records: AuditRecord[]; more: boolean }> {
    const records: AuditRecord[] = [];
    const newest = range.before ?? range.last;
    let month = newest ? auditMonth(newest) : this.now().toISOString().slice(0, 7);
    const oldest = range.first ? auditMonth(range.first) : "";
    let start: Record<string, unknown> | undefined = range.before ? { month, audit_id: range.before } : undefined;
    for (let read = 0; read < AUDIT_RETENTION_MONTHS && month >= oldest; read += 1) {
      do {
        const { Items = [], LastEvaluatedKey } = await this.db.send(
          new QueryCommand({
            TableName: this.table,
            ScanIndexForward: false,
            ...rangeQuery({ name: "month", value: month }, range),
            Limit: limit - records.length + 1,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        records.push(...Items.filter(inItsMonth).map(recordOf));
        if (records.length > limit) return { records: records.slice(0, limit), more: true };
        start = LastEvaluatedKey;
      } while (start);
      month = monthFrom(month, -1);
    }
    return { records, more: false };
  }
}
