/**
 * Writes that change items and record the change in the audit trail together: the change's
 * items and the record go in one transaction, or nothing is written. A record is a put of its
 * own item, so audited writes never wait on one another.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { RequestRecord } from "../domain/requests.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";

/** One item of a transaction, as the document client takes it. */
export type WriteItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/** The put of one record (of the audit trail, of the request log), alone or in a transaction. */
export type RecordPut = NonNullable<WriteItem["Put"]>;

/** What puts an audit record beside a change: its put, written in the change's transaction. */
export interface AuditLinker {
  recordPut(record: AuditRecord): RecordPut;
}

/** What puts a request's record beside the change the request made: its put, written in the change's transaction. */
export interface RequestLinker {
  requestPut(record: RequestRecord): RecordPut;
}

/** The put of the request's record that goes with a change; a store given a record without the log is a wiring mistake. */
export function requestPutOf(linker: RequestLinker | undefined, record: RequestRecord | undefined): WriteItem[] {
  if (!record) return [];
  if (!linker) throw new Error("A change that carries its request's record needs the request log beside the store");
  return [{ Put: linker.requestPut(record) }];
}

/** A write that failed: `ConditionalCheckFailedException` or `TransactionCanceledException`. */
type Refused = ConditionalCheckFailedException | TransactionCanceledException;

/**
 * The item the `index`th change found when its condition failed (as it stood: the write asks
 * for it), or undefined when the write failed for another reason. `found` is false when the
 * failure was not that change's condition.
 */
export function refusedChange(
  error: unknown,
  index = 0,
): { found: true; item: Record<string, unknown> | undefined } | { found: false } {
  if (error instanceof ConditionalCheckFailedException && index === 0) {
    return { found: true, item: error.Item ? unmarshall(error.Item) : undefined };
  }
  if (error instanceof TransactionCanceledException) {
    const reason = error.CancellationReasons?.[index];
    if (reason?.Code === "ConditionalCheckFailed") {
      return { found: true, item: reason.Item ? unmarshall(reason.Item) : undefined };
    }
  }
  return { found: false };
}

/** Whether any of a failed write's first `changes` items failed its condition or met another transaction. */
export function refused(error: unknown, changes: number): error is Refused {
  if (error instanceof ConditionalCheckFailedException) return true;
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? [])
      .slice(0, changes)
      .some((reason) => reason.Code === "ConditionalCheckFailed" || reason.Code === "TransactionConflict")
  );
}

/** A single change sent alone, as its own command: what a failed condition found comes back with it. */
async function writeAlone(db: DynamoDBDocumentClient, change: WriteItem): Promise<Record<string, unknown> | undefined> {
  const onFailure = { ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const };
  if (change.Put) await db.send(new PutCommand({ ...change.Put, ...onFailure }));
  else if (change.Delete) await db.send(new DeleteCommand({ ...change.Delete, ...onFailure }));
  else if (change.Update) {
    const { Attributes } = await db.send(
      new UpdateCommand({ ...change.Update, ...onFailure, ReturnValues: "ALL_NEW" }),
    );
    return Attributes;
  } else throw new Error("A write of a condition check alone changes nothing");
  return undefined;
}

/**
 * Writes `changes` and, with `audited`, the record of them, together or not at all. A single
 * change without a record goes alone (its new item comes back when it is an update); otherwise
 * one transaction. A refusal of a change is thrown as DynamoDB gave it, the transaction's
 * reasons cut to the changes' own, so callers read them with `refusedChange`.
 */
/** The change's record with what links it into its chain; a store given a record without a trail is a wiring mistake. */
export function linked(
  linker: AuditLinker | undefined,
  record: AuditRecord | undefined,
): { linker: AuditLinker; record: AuditRecord } | undefined {
  if (!record) return undefined;
  if (!linker) throw new Error("An audited change needs the audit trail beside the store");
  return { linker, record };
}

export async function writeTogether(
  db: DynamoDBDocumentClient,
  changes: WriteItem[],
  audited?: { linker: AuditLinker; record: AuditRecord },
): Promise<{ updated?: Record<string, unknown> }> {
  if (!audited && changes.length === 1) return { updated: await writeAlone(db, changes[0] as WriteItem) };
  const items = [
    ...changes.map(asksForTheOldItem),
    ...(audited ? [{ Put: audited.linker.recordPut(audited.record) }] : []),
  ];
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return {};
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const own = (error.CancellationReasons ?? []).slice(0, changes.length);
    if (!own.some((reason) => reason.Code !== undefined && reason.Code !== "None")) throw error;
    throw new TransactionCanceledException({
      message: error.message,
      $metadata: error.$metadata,
      CancellationReasons: own,
    });
  }
}

/** The change asks for the item it found when its condition fails. */
function asksForTheOldItem(change: WriteItem): WriteItem {
  const onFailure = { ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const };
  if (change.Put) return { Put: { ...change.Put, ...onFailure } };
  if (change.Update) return { Update: { ...change.Update, ...onFailure } };
  if (change.Delete) return { Delete: { ...change.Delete, ...onFailure } };
  if (change.ConditionCheck) return { ConditionCheck: { ...change.ConditionCheck, ...onFailure } };
  return change;
}
