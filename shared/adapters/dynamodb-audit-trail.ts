import { type DynamoDBDocumentClient, PutCommand, paginateQuery, paginateScan } from "@aws-sdk/lib-dynamodb";
import { AUDIT_TABLE } from "../declarations/tables.ts";
import {
  AUDIT_CHAINS,
  AUDIT_ID_PATTERN,
  AUDIT_RETENTION_MONTHS,
  auditExpiry,
  auditIdBelow,
  auditIdsBetween,
  auditMonth,
  auditPartition,
  auditPlace,
  auditPrint,
  isActor,
  monthFrom,
  type RecordPrint,
} from "../domain/audit.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { AuditFilter, AuditNarrowing, AuditPrints, AuditStrays, AuditTrail } from "../ports/audit-trail.ts";
import { queryWithMore } from "./dynamodb-pages.ts";
import type { AuditLinker, RecordPut } from "./dynamodb-writes.ts";

/** The ids a listing may show: from `first` to `last` (each when given, both inclusive), of `action`. */
interface IdRange {
  first?: string;
  last?: string;
  action?: string;
}

/**
 * A narrowing and a page's cursor as one range of ids (older than `before`: up to the id just
 * below it); none when together they leave no id.
 */
function idRange(narrowing: AuditNarrowing, before: string | undefined): IdRange | undefined {
  const ids = auditIdsBetween(narrowing.since ?? new Date(0), narrowing.until ?? new Date(0));
  const first = narrowing.since ? ids.first : undefined;
  const until = narrowing.until ? ids.last : undefined;
  const below = before === undefined ? undefined : auditIdBelow(before);
  if (before !== undefined && below === undefined) return undefined;
  const last = below !== undefined && (until === undefined || below < until) ? below : until;
  if (first !== undefined && last !== undefined && last < first) return undefined;
  return { first, last, action: narrowing.action };
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

/**
 * Whether an item is a record kept where it belongs, its month's chain (or its month's whole,
 * where records were kept before chains): the only items any listing shows or any digest seals.
 */
function inItsPlace(item: Record<string, unknown>): boolean {
  const { audit_id, actor, organization_id, month } = item;
  if (typeof audit_id !== "string" || !AUDIT_ID_PATTERN.test(audit_id)) return false;
  if (month === auditMonth(audit_id)) return true;
  if (!isActor(actor) || (organization_id !== undefined && typeof organization_id !== "string")) return false;
  return month === auditPlace({ audit_id, actor, organization_id });
}

/** Items by their ids, newest first. */
const newestFirst = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(b.audit_id).localeCompare(String(a.audit_id));

/**
 * The audit table: records partitioned by month and chain (`AUDIT_CHAINS`), with an index per
 * verification and per actor.
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
      month: auditPlace(record),
      actor_sub: record.actor.sub,
      expires_at_epoch: auditExpiry(record.audit_id),
    };
    return { TableName: this.table, Item: item, ConditionExpression: "attribute_not_exists(audit_id)" };
  }

  /** Every chain of the month read at once, merged in id order: the month is sealed as one. */
  async prints(month: string, after?: string): Promise<RecordPrint[]> {
    const chains = await Promise.all(
      AUDIT_CHAINS.map(async (chain) => {
        const prints: RecordPrint[] = [];
        const pages = paginateQuery(
          { client: this.db },
          {
            TableName: this.table,
            KeyConditionExpression: after ? "#month = :month AND audit_id > :after" : "#month = :month",
            ExpressionAttributeNames: { "#month": "month" },
            ExpressionAttributeValues: {
              ":month": auditPartition(month, chain),
              ...(after ? { ":after": after } : {}),
            },
            ConsistentRead: true,
          },
        );
        for await (const page of pages) {
          for (const item of page.Items ?? []) {
            if (inItsPlace(item)) prints.push({ audit_id: String(item.audit_id), print: auditPrint(item) });
          }
        }
        return prints;
      }),
    );
    return chains.flat().sort((a, b) => a.audit_id.localeCompare(b.audit_id));
  }

  async strays(): Promise<string[]> {
    const strays: string[] = [];
    const pages = paginateScan(
      { client: this.db },
      {
        TableName: this.table,
        ProjectionExpression: "#month, audit_id, actor, organization_id",
        ExpressionAttributeNames: { "#month": "month" },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const id = item.audit_id;
        if (typeof id === "string" && AUDIT_ID_PATTERN.test(id) && !inItsPlace(item)) strays.push(id);
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
    });
    return { records: items.filter(inItsPlace).map(recordOf), more };
  }

  /**
   * Newest month first, from the range's last month to its first, the trail's whole retention at
   * most; each month's chains read at once, each for as many as the page still needs, and merged.
   */
  private async monthsPage(limit: number, range: IdRange): Promise<{ records: AuditRecord[]; more: boolean }> {
    const records: AuditRecord[] = [];
    let month = range.last ? auditMonth(range.last) : this.now().toISOString().slice(0, 7);
    const oldest = range.first ? auditMonth(range.first) : "";
    for (let read = 0; read < AUDIT_RETENTION_MONTHS && month >= oldest; read += 1) {
      const needed = limit - records.length;
      const chains = await Promise.all(
        AUDIT_CHAINS.map((chain) =>
          queryWithMore<Record<string, unknown>>(this.db, needed, {
            TableName: this.table,
            ScanIndexForward: false,
            ...rangeQuery({ name: "month", value: auditPartition(month, chain) }, range),
          }),
        ),
      );
      const found = chains.flatMap(({ items }) => items.filter(inItsPlace)).sort(newestFirst);
      records.push(...found.slice(0, needed).map(recordOf));
      if (found.length > needed || chains.some(({ more }) => more)) return { records, more: true };
      month = monthFrom(month, -1);
    }
    return { records, more: false };
  }
}
