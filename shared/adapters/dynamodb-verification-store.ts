import { randomUUID } from "node:crypto";
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, paginateQuery } from "@aws-sdk/lib-dynamodb";
import { VERIFICATIONS_TABLE } from "../declarations/tables.ts";
import type { TransitionGuard } from "../domain/guards.ts";
import { inParallel } from "../domain/in-parallel.ts";
import type { IssuerState } from "../domain/issuer.ts";
import type { RequestRecord } from "../domain/requests.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { ReviewFilter } from "../domain/review.ts";
import type { VerificationPosition } from "../domain/searches.ts";
import { partitionsOf, shardedKey } from "../domain/shards.ts";
import { canTransition } from "../domain/state.ts";
import { isoSeconds } from "../domain/time.ts";
import { ERASED_ATTRIBUTES, type VerificationItem } from "../domain/verification.ts";
import type {
  AskingAgain,
  ReviewPosition,
  Revision,
  TransitionOutcome,
  TransitionRequest,
  VerificationQuery,
  VerificationStore,
} from "../ports/verification-store.ts";
import { countMatching, queryPage, queryWithMore } from "./dynamodb-pages.ts";
import { DynamoDbVerificationReader, fromStored } from "./dynamodb-verification-reader.ts";
import {
  type AuditLinker,
  linked,
  type RequestLinker,
  refusedChange,
  requestPutOf,
  type WriteItem,
  writeTogether,
} from "./dynamodb-writes.ts";

/** The last whole second before `instant`: created_at has no finer part. */
function beforeInstant(instant: string): string {
  return isoSeconds(new Date(Math.ceil(Date.parse(instant) / 1000) * 1000 - 1000));
}

const { indexes } = VERIFICATIONS_TABLE;

/** How many partitions of an index by time (upload deadlines, erasures) the tick reads at once. */
export const EXPIRY_CONCURRENCY = 4;

/** The by-reference index's key of an app's reference. */
const appReference = (appId: string, reference: string) => `${appId}#${reference}`;

/** The review-deadline index's key: the review deadline's UTC date. */
const reviewDay = (deadline: string) => deadline.slice(0, 10);

/** `item` without the fields `names`. */
function withoutFields(item: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const rest = { ...item };
  for (const name of names) delete rest[name];
  return rest;
}

/** A guard (`guards.ts`) as a condition expression, its names and values added to the write's. */
function guardCondition(guard: TransitionGuard, names: Record<string, string>, values: Record<string, unknown>) {
  const parts: string[] = [];
  if (guard.sequence !== undefined) {
    names["#sequence"] = "sequence";
    values[":seen"] = guard.sequence;
    parts.push("#sequence = :seen");
  }
  if (guard.claimHeldBy !== undefined) {
    values[":holder"] = guard.claimHeldBy;
    parts.push("claimed_by_sub = :holder AND claim_expires_at > :now");
  }
  if (guard.upload) {
    const { appId, size, documentTypes } = guard.upload;
    const types = documentTypes.map((type, i) => {
      values[`:type${i}`] = type;
      return `:type${i}`;
    });
    Object.assign(values, { ":app": appId, ":size": size });
    // A list of no types matches nothing: the record exists, so this never holds.
    const typed = types.length > 0 ? `document_type IN (${types.join(", ")})` : "attribute_not_exists(verification_id)";
    parts.push(`app_id = :app AND upload_deadline > :now AND file_size_bytes = :size AND ${typed}`);
  }
  if (guard.deadlinePassedBy !== undefined) {
    values[":deadline"] = guard.deadlinePassedBy;
    parts.push("upload_deadline <= :deadline");
  }
  return parts;
}

/** `SET` clauses for each field of `change`, its names and values added to the expression's. */
function assignments(change: Record<string, unknown>, names: Record<string, string>, values: Record<string, unknown>) {
  return Object.entries(change).map(([name, value], index) => {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
}

/** `REMOVE` clauses for each of `fields`, their names added to the expression's. */
function removals(fields: readonly string[], names: Record<string, string>) {
  return fields.map((name, index) => {
    names[`#r${index}`] = name;
    return `#r${index}`;
  });
}

/**
 * The verifications table. Every change of state goes through `transition`; a change made by a
 * person is written with its audit record, through the trail beside the store (`audit`), and a
 * change an API request makes with that request's record, through the request log (`requests`).
 */
export class DynamoDbVerificationStore implements VerificationStore {
  /** One verification by its id: the read a fetch makes alone, which the store shares. */
  private readonly reader: DynamoDbVerificationReader;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly audit?: AuditLinker,
    private readonly requests?: RequestLinker,
  ) {
    this.reader = new DynamoDbVerificationReader(db, table);
  }

  async create(item: VerificationItem, keepDays: number, logged?: RequestRecord): Promise<void> {
    const reference = item.external_reference_id;
    const put = {
      TableName: this.table,
      Item: {
        ...item,
        // Created awaiting its upload: in the expiry index, under its deadline's day and shard.
        [indexes.awaitingByDeadline.partitionKey.name]: shardedKey(
          item.upload_deadline.slice(0, 10),
          item.verification_id,
        ),
        ...(reference !== undefined
          ? { [indexes.byReference.partitionKey.name]: appReference(item.app_id, reference) }
          : {}),
        [VERIFICATIONS_TABLE.ttlAttribute]: Math.floor(Date.parse(item.created_at) / 1000) + keepDays * 86_400,
      },
      ConditionExpression: "attribute_not_exists(verification_id)",
    };
    if (logged) await writeTogether(this.db, [{ Put: put }, ...requestPutOf(this.requests, logged)]);
    else await this.db.send(new PutCommand(put));
  }

  /**
   * Removes a verification that no client has been given: only while it is still new
   * (awaiting its upload, at its first sequence). Nothing happens when it is gone or has moved on.
   */
  async discardNew(id: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { verification_id: id },
          ConditionExpression: "#status = :awaiting AND #sequence = :first",
          ExpressionAttributeNames: { "#status": "status", "#sequence": "sequence" },
          ExpressionAttributeValues: { ":awaiting": "awaiting_upload", ":first": 1 },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  get(id: string): Promise<VerificationItem | undefined> {
    return this.reader.get(id);
  }

  /**
   * A conditional change of state: only a transition the state machine draws, only from the
   * state the caller saw, and `sequence` grows by one.
   */
  async transition(request: TransitionRequest): Promise<TransitionOutcome> {
    if (!canTransition(request.from, request.to)) {
      throw new Error(`Transition ${request.from} -> ${request.to} is not allowed`);
    }
    const names: Record<string, string> = { "#status": "status", "#sequence": "sequence" };
    const values: Record<string, unknown> = {
      ":from": request.from,
      ":to": request.to,
      ":now": request.now,
      ":one": 1,
    };
    const sets = ["#status = :to", "#sequence = #sequence + :one", "updated_at = :now"];
    const change: Record<string, unknown> = { ...request.set };
    // Entering review puts it in the review-deadline index, under the deadline's day.
    if (request.to === "in_review" && request.set?.review_deadline) {
      change[indexes.inReviewByDeadline.partitionKey.name] = reviewDay(request.set.review_deadline);
    }
    sets.push(...assignments(change, names, values));
    // Leaving a state takes the item out of that state's sparse index.
    const sparseKey = {
      awaiting_upload: indexes.awaitingByDeadline.partitionKey.name,
      in_review: indexes.inReviewByDeadline.partitionKey.name,
    }[request.from as string];
    const removed: string[] = sparseKey ? [sparseKey] : [];
    removed.push(...removals(request.remove ?? [], names));
    const remove = removed.length > 0 ? ` REMOVE ${removed.join(", ")}` : "";
    const { seen } = request;
    const expect = seen ? { ...request.expect, sequence: seen.sequence } : (request.expect ?? {});
    const condition = ["#status = :from", ...guardCondition(expect, names, values)].join(" AND ");
    return this.conditionalUpdate(
      {
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: `SET ${sets.join(", ")}${remove}`,
        ConditionExpression: `attribute_exists(verification_id) AND ${condition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
      request.audit,
      request.logged,
      seen && {
        ...withoutFields({ ...seen, ...change }, request.remove ?? []),
        status: request.to,
        sequence: seen.sequence + 1,
        updated_at: request.now,
      },
    );
  }

  erase(request: {
    id: string;
    sequence: number;
    now: string;
    expire: boolean;
    audit?: AuditRecord;
  }): Promise<TransitionOutcome> {
    const sets = [
      "redacted_at = :now",
      "updated_at = :now",
      "#sequence = #sequence + :one",
      "checks = :none",
      // Into the erasure index, under the erasure's day and shard.
      `${indexes.erasedByTime.partitionKey.name} = :erasedDay`,
    ];
    // The reference goes, and with it its key in the by-reference index.
    const removed: string[] = [...ERASED_ATTRIBUTES, indexes.byReference.partitionKey.name];
    if (request.expire) {
      sets.push("#status = :expired", "completed_at = :now");
      removed.push(indexes.awaitingByDeadline.partitionKey.name);
    }
    return this.conditionalUpdate(
      {
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: `SET ${sets.join(", ")} REMOVE ${removed.join(", ")}`,
        ConditionExpression: `attribute_exists(verification_id) AND #sequence = :sequence AND attribute_not_exists(redacted_at)${request.expire ? " AND #status = :awaiting" : ""}`,
        ExpressionAttributeNames: { "#sequence": "sequence", ...(request.expire ? { "#status": "status" } : {}) },
        ExpressionAttributeValues: {
          ":now": request.now,
          ":one": 1,
          ":none": [],
          ":sequence": request.sequence,
          ":erasedDay": shardedKey(request.now.slice(0, 10), request.id),
          ...(request.expire ? { ":expired": "expired", ":awaiting": "awaiting_upload" } : {}),
        },
      },
      request.audit,
    );
  }

  /**
   * The issuer's state, over the state seen: none, or the same revision. The state carries a
   * token of this write: refused over a state with the same token, it is this write that applied,
   * sent again by the SDK because its answer was lost, and it counts as applied.
   */
  async recordIssuer(request: {
    id: string;
    sequence: number;
    seen: IssuerState | undefined;
    state: IssuerState;
    forgetSubmittedNumber?: boolean;
  }): Promise<TransitionOutcome> {
    const seen = request.seen ? "issuer.rev = :rev" : "attribute_not_exists(issuer)";
    const state: IssuerState = { ...request.state, write: randomUUID() };
    const forget = request.forgetSubmittedNumber ? " REMOVE submitted_keys.identity_number_sealed" : "";
    const outcome = await this.conditionalUpdate(
      {
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: `SET issuer = :state${forget}`,
        ConditionExpression: `attribute_exists(verification_id) AND #status IN (:processing, :in_review) AND #sequence = :sequence AND ${seen}${forget ? " AND attribute_exists(submitted_keys)" : ""}`,
        ExpressionAttributeNames: { "#status": "status", "#sequence": "sequence" },
        ExpressionAttributeValues: {
          ":state": state,
          ":processing": "processing",
          ":in_review": "in_review",
          ":sequence": request.sequence,
          ...(request.seen ? { ":rev": request.seen.rev } : {}),
        },
      },
      undefined,
    );
    const mine = !outcome.applied && outcome.item?.issuer?.write === state.write;
    return mine && outcome.item ? { applied: true, item: outcome.item } : outcome;
  }

  /**
   * One conditional update, and with `audit` its record, together: the new item, or the item
   * as it stood when the condition failed.
   */
  /**
   * The update, with the records that go with it; the item it wrote, as it answers it, or as
   * `built` from the item the caller saw, or else read back (a transaction answers no item).
   */
  private async conditionalUpdate(
    update: NonNullable<WriteItem["Update"]>,
    audit: AuditRecord | undefined,
    logged?: RequestRecord,
    built?: Record<string, unknown>,
  ): Promise<TransitionOutcome> {
    const audited = linked(this.audit, audit);
    try {
      const changes = [{ Update: update }, ...requestPutOf(this.requests, logged)];
      const { updated } = await writeTogether(this.db, changes, audited);
      const written = updated ?? built;
      const item = written ? fromStored(written) : await this.get(String(update.Key?.verification_id));
      return { applied: true, item: item as VerificationItem };
    } catch (error) {
      const change = refusedChange(error);
      if (change.found) return { applied: false, item: fromStored(change.item) };
      throw error;
    }
  }

  askIssuerAgain(request: AskingAgain): Promise<TransitionOutcome> {
    const names: Record<string, string> = { "#status": "status" };
    const values: Record<string, unknown> = {
      ":state": request.state,
      ":in_review": "in_review",
      ":unavailable": "issuer_unavailable",
      ":rev": request.seen.rev,
      ":now": request.now,
    };
    const guard = guardCondition({ sequence: request.sequence, claimHeldBy: request.holder }, names, values);
    return this.conditionalUpdate(
      {
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: "SET issuer = :state",
        ConditionExpression: [
          "attribute_exists(verification_id) AND #status = :in_review AND review_reason = :unavailable",
          "issuer.rev = :rev",
          ...guard,
        ].join(" AND "),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
      request.audit,
    );
  }

  revise(request: Revision): Promise<TransitionOutcome> {
    const names: Record<string, string> = { "#status": "status" };
    const values: Record<string, unknown> = { ":in_review": "in_review", ":now": request.now, ":one": 1 };
    const guard = guardCondition({ sequence: request.sequence }, names, values);
    const sets = ["#sequence = #sequence + :one", "updated_at = :now", ...assignments(request.set, names, values)];
    const removed = removals(request.remove ?? [], names);
    return this.conditionalUpdate(
      {
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: `SET ${sets.join(", ")}${removed.length > 0 ? ` REMOVE ${removed.join(", ")}` : ""}`,
        ConditionExpression: ["attribute_exists(verification_id) AND #status = :in_review", ...guard].join(" AND "),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
      undefined,
    );
  }

  /** The claim is a lease: free, lapsed, or the caller's own (a renewal). */
  claimReview(request: {
    id: string;
    holder: { sub: string; username: string };
    now: string;
    expiresAt: string;
    audit?: AuditRecord;
  }): Promise<TransitionOutcome> {
    return this.conditionalUpdate(
      {
        TableName: this.table,
        Key: { verification_id: request.id },
        UpdateExpression: "SET claimed_by_sub = :sub, claimed_by = :username, claim_expires_at = :until",
        ConditionExpression:
          "attribute_exists(verification_id) AND #status = :in_review AND (attribute_not_exists(claim_expires_at) OR claim_expires_at <= :now OR claimed_by_sub = :sub)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":sub": request.holder.sub,
          ":username": request.holder.username,
          ":until": request.expiresAt,
          ":now": request.now,
          ":in_review": "in_review",
        },
      },
      request.audit,
    );
  }

  async inReviewOn(
    day: string,
    filter: ReviewFilter,
    limit: number,
    after?: ReviewPosition,
  ): Promise<{ items: VerificationItem[]; more: boolean }> {
    const { partitionKey, sortKey } = indexes.inReviewByDeadline;
    const { items, more } = await queryWithMore<Record<string, unknown>>(this.db, limit, {
      ...this.inReviewQuery(day, filter),
      ...(after
        ? {
            ExclusiveStartKey: {
              verification_id: after.id,
              [partitionKey.name]: day,
              [sortKey.name]: after.deadline,
            },
          }
        : {}),
    });
    return { items: items.map((item) => fromStored(item) as VerificationItem), more };
  }

  countInReviewOn(day: string, filter: ReviewFilter): Promise<number> {
    return countMatching(this.db, this.inReviewQuery(day, filter));
  }

  /** The review-deadline index's partition of `day`, what `filter` keeps of it. */
  private inReviewQuery(day: string, filter: ReviewFilter) {
    const { indexName, partitionKey } = indexes.inReviewByDeadline;
    const names: Record<string, string> = { "#day": partitionKey.name };
    const values: Record<string, unknown> = { ":day": day };
    const kept: string[] = [];
    if (filter.documentType !== undefined) {
      names["#type"] = "document_type";
      values[":type"] = filter.documentType;
      kept.push("#type = :type");
    }
    if (filter.reason !== undefined) {
      names["#reason"] = "review_reason";
      values[":reason"] = filter.reason;
      kept.push("#reason = :reason");
    }
    return {
      TableName: this.table,
      IndexName: indexName,
      KeyConditionExpression: "#day = :day",
      ...(kept.length > 0 ? { FilterExpression: kept.join(" AND ") } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
  }

  /**
   * An app's verifications, newest first: by reference from its index when one is given, else
   * from the app's index; the creation window is the key condition, the status a filter.
   */
  async listForApp(
    query: VerificationQuery,
    limit: number,
    after?: VerificationPosition,
  ): Promise<{ items: VerificationItem[]; last: VerificationPosition | undefined }> {
    const index = query.reference === undefined ? indexes.byApp : indexes.byReference;
    const partition = query.reference === undefined ? query.appId : appReference(query.appId, query.reference);
    const names: Record<string, string> = { "#partition": index.partitionKey.name };
    const values: Record<string, unknown> = { ":partition": partition };
    // created_after is inclusive, created_before exclusive; created_at is in whole seconds.
    const from = query.createdAfter === undefined ? undefined : isoSeconds(new Date(query.createdAfter));
    const before = query.createdBefore === undefined ? undefined : beforeInstant(query.createdBefore);
    const window =
      from !== undefined && before !== undefined
        ? "BETWEEN :from AND :before"
        : from !== undefined
          ? ">= :from"
          : before !== undefined
            ? "<= :before"
            : undefined;
    if (from !== undefined) values[":from"] = from;
    if (before !== undefined) values[":before"] = before;
    if (window) names["#created"] = "created_at";
    const keyCondition = `#partition = :partition${window ? ` AND #created ${window}` : ""}`;
    let filter: string | undefined;
    if (query.status !== undefined) {
      names["#status"] = "status";
      // An upload awaited past its deadline reads as expired: those two compare with now. Only
      // the values an expression names may be sent (DynamoDB refuses an unused one).
      if (query.status === "expired" || query.status === "awaiting_upload") {
        values[":now"] = query.now;
        values[":awaiting"] = "awaiting_upload";
      }
      if (query.status === "expired") {
        values[":expired"] = "expired";
        filter = "#status = :expired OR (#status = :awaiting AND upload_deadline <= :now)";
      } else if (query.status === "awaiting_upload") {
        filter = "#status = :awaiting AND upload_deadline > :now";
      } else {
        values[":status"] = query.status;
        filter = "#status = :status";
      }
    }
    const page = await queryPage<Record<string, unknown>>(this.db, limit, {
      TableName: this.table,
      IndexName: index.indexName,
      KeyConditionExpression: keyCondition,
      ...(filter ? { FilterExpression: filter } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      ...(after
        ? {
            ExclusiveStartKey: {
              verification_id: after.id,
              [index.partitionKey.name]: partition,
              created_at: after.created_at,
            },
          }
        : {}),
    });
    const last = page.lastKey as { verification_id: string; created_at: string } | undefined;
    return {
      items: page.items.map((item) => fromStored(item) as VerificationItem),
      last: last ? { created_at: last.created_at, id: last.verification_id } : undefined,
    };
  }

  /**
   * Visits every verification still awaiting an upload whose deadline is at or before `now`, on
   * UTC day `since` or later: each day's partitions of the deadline index (`shards.ts`), a few read
   * at once, each partition's items one after another.
   */
  async awaitingPastDeadline(
    since: string,
    now: string,
    visit: (item: VerificationItem) => Promise<void>,
  ): Promise<void> {
    const partitions: string[] = [];
    for (let day = since; day <= now.slice(0, 10); day = nextDay(day)) partitions.push(...partitionsOf(day));
    await inParallel(partitions, EXPIRY_CONCURRENCY, async (partition) => {
      for await (const item of this.upTo(indexes.awaitingByDeadline, partition, now)) await visit(item);
    });
  }

  /**
   * Visits every verification erased from `since` to `now`: each day's partitions of the erasure
   * index (`shards.ts`), a few read at once, each partition's items one after another.
   */
  async erasedSince(since: string, now: string, visit: (item: VerificationItem) => Promise<void>): Promise<void> {
    const partitions: string[] = [];
    for (let day = since.slice(0, 10); day <= now.slice(0, 10); day = nextDay(day))
      partitions.push(...partitionsOf(day));
    await inParallel(partitions, EXPIRY_CONCURRENCY, async (partition) => {
      for await (const item of this.upTo(indexes.erasedByTime, partition, now, since)) await visit(item);
    });
  }

  /** Verifications in review whose review window, closing on UTC day `day`, closed at or before `now`. */
  inReviewPastDeadline(day: string, now: string): AsyncGenerator<VerificationItem> {
    return this.upTo(indexes.inReviewByDeadline, day, now);
  }

  /** A partition of a sparse index by time: its items up to `now`, from `since` when given. */
  private async *upTo(
    index: (typeof indexes)["awaitingByDeadline" | "inReviewByDeadline" | "erasedByTime"],
    partition: string,
    now: string,
    since?: string,
  ): AsyncGenerator<VerificationItem> {
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.table,
        IndexName: index.indexName,
        KeyConditionExpression: `#partition = :partition AND ${since === undefined ? "#at <= :now" : "#at BETWEEN :since AND :now"}`,
        ExpressionAttributeNames: { "#partition": index.partitionKey.name, "#at": index.sortKey.name },
        ExpressionAttributeValues: {
          ":partition": partition,
          ":now": now,
          ...(since === undefined ? {} : { ":since": since }),
        },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) yield fromStored(item) as VerificationItem;
    }
  }
}

/** The UTC day after `day` (`YYYY-MM-DD`). */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
