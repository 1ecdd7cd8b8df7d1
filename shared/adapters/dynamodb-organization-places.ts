/**
 * An organisation's places: the organisation item counts the apps it owns (`app_count`), its
 * members (`member_count`) and their invitations not yet accepted (`pending_count`), and a write
 * that gives it an app or a member takes a place in the same transaction, on condition that one
 * is free, so concurrent writes cannot pass the limit; an invitation takes its two places before
 * its invitee's user is made (`reservePlaces`).
 * An organisation stored before they were counted has them counted from the index once, by the
 * first write that takes a place.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, paginateQuery, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { APPS_TABLE } from "../declarations/tables.ts";
import type { OrganizationItem } from "../domain/organizations.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import { orgPk } from "./dynamodb-app-rows.ts";
import { type AuditLinker, type WriteItem, writeTogether } from "./dynamodb-writes.ts";

/** How many times a write reads the count again after another write took a place first. */
const ATTEMPTS = 40;
const BACKOFF_MS = 20;

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * BACKOFF_MS * Math.min(attempt, 10)));

/** What an organisation counts: the attribute that holds the count, and the index that lists them. */
const COUNTED = {
  apps: { attribute: "app_count", index: APPS_TABLE.indexes.appsByOrganization, key: "organization_id", only: "" },
  members: {
    attribute: "member_count",
    index: APPS_TABLE.indexes.membersByOrganization,
    key: "member_org_id",
    only: "",
  },
  pending: {
    attribute: "pending_count",
    index: APPS_TABLE.indexes.membersByOrganization,
    key: "member_org_id",
    only: "attribute_exists(pending)",
  },
} as const;
export type Counted = keyof typeof COUNTED;

/** The organisation's apps or members, counted from their index (eventually consistent). */
async function countedFromIndex(
  db: DynamoDBDocumentClient,
  table: string,
  organizationId: string,
  counted: Counted,
): Promise<number> {
  const { index, key, only } = COUNTED[counted];
  let count = 0;
  const pages = paginateQuery(
    { client: db },
    {
      TableName: table,
      IndexName: index.indexName,
      KeyConditionExpression: `${key} = :organization`,
      ...(only ? { FilterExpression: only } : {}),
      ExpressionAttributeValues: { ":organization": organizationId },
      Select: "COUNT",
    },
  );
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}

/** How many the stored organisation has: its count, or them counted when it has none yet. */
async function readCount(
  db: DynamoDBDocumentClient,
  table: string,
  organizationId: string,
  counted: Counted,
): Promise<{ count: number; stored: boolean } | undefined> {
  return (await readCounts(db, table, organizationId, [counted]))?.[0];
}

/** How many of each of `kinds` the stored organisation has, from one read of it, in their order. */
async function readCounts(
  db: DynamoDBDocumentClient,
  table: string,
  organizationId: string,
  kinds: readonly Counted[],
): Promise<{ count: number; stored: boolean }[] | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table, Key: { pk: orgPk(organizationId) }, ConsistentRead: true }),
  );
  const organization = Item as OrganizationItem | undefined;
  if (!organization) return undefined;
  return Promise.all(
    kinds.map(async (counted) => {
      const stored = organization[COUNTED[counted].attribute];
      if (stored !== undefined) return { count: stored, stored: true };
      return { count: await countedFromIndex(db, table, organizationId, counted), stored: false };
    }),
  );
}

/** How many apps or members the organisation has; none when it is not stored. */
export async function placesTaken(
  db: DynamoDBDocumentClient,
  table: string,
  organizationId: string,
  counted: Counted,
): Promise<number> {
  return (await readCount(db, table, organizationId, counted))?.count ?? 0;
}

/**
 * The change that takes one of the organisation's places, holding only while one is free;
 * undefined when the organisation owns `most` apps already.
 */
async function placeTaken(
  db: DynamoDBDocumentClient,
  table: string,
  { organizationId, most, counted }: Place,
): Promise<WriteItem | undefined> {
  const read = await readCount(db, table, organizationId, counted);
  const { attribute } = COUNTED[counted];
  if (!read) throw new Error(`Organisation ${organizationId} is not stored`);
  if (read.count >= most) return undefined;
  const key = { pk: orgPk(organizationId) };
  if (!read.stored) {
    // Its first count, from the index: only while no other write has stored one.
    return {
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `SET ${attribute} = :taken`,
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(${attribute})`,
        ExpressionAttributeValues: { ":taken": read.count + 1 },
      },
    };
  }
  return {
    Update: {
      TableName: table,
      Key: key,
      UpdateExpression: `SET ${attribute} = ${attribute} + :one`,
      ConditionExpression: `${attribute} < :most`,
      ExpressionAttributeValues: { ":one": 1, ":most": most },
    },
  };
}

/** Whether the first change of a failed write, the place, lost to another write taking one. */
function placeLost(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const [place, ...others] = error.CancellationReasons ?? [];
  const lost = place?.Code === "ConditionalCheckFailed" || place?.Code === "TransactionConflict";
  return lost && others.every((reason) => reason.Code === undefined || reason.Code === "None");
}

/** A place among the organisation's apps or members, of which it may have `most`. */
export interface Place {
  organizationId: string;
  most: number;
  counted: Counted;
}

/**
 * Writes `changes` (and the record of them) together with a place of the organisation taken,
 * or nothing. False, writing nothing, when the organisation has `most` already.
 */
export async function writeTakingPlace(
  db: DynamoDBDocumentClient,
  table: string,
  place: Place,
  changes: WriteItem[],
  audited: { linker: AuditLinker; record: AuditRecord } | undefined,
): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    const taken = await placeTaken(db, table, place);
    if (!taken) return false;
    try {
      await writeTogether(db, [taken, ...changes], audited);
      return true;
    } catch (error) {
      if (!placeLost(error) || attempt === ATTEMPTS) throw error;
      // Another write took a place first: read the count again and decide again.
      await pause(attempt);
    }
  }
}

/**
 * The change that gives back one of the organisation's places of each kind in `counted` (a
 * member's, as their membership ends; an invitation's, as it is accepted or withdrawn), for the
 * kinds the organisation counts already; none when it counts none of them yet (a first count
 * will not include them). One update: a transaction may change the organisation item once.
 */
export async function placeGivenBack(
  db: DynamoDBDocumentClient,
  table: string,
  organizationId: string,
  counted: readonly Counted[] = ["members"],
): Promise<WriteItem | undefined> {
  const reads = (await readCounts(db, table, organizationId, counted)) ?? [];
  const kept = counted.filter((_, n) => reads[n]?.stored).map((kind) => COUNTED[kind].attribute);
  if (kept.length === 0) return undefined;
  return {
    Update: {
      TableName: table,
      Key: { pk: orgPk(organizationId) },
      UpdateExpression: `SET ${kept.map((attribute) => `${attribute} = ${attribute} - :one`).join(", ")}`,
      ConditionExpression: kept.map((attribute) => `${attribute} > :none`).join(" AND "),
      ExpressionAttributeValues: { ":one": 1, ":none": 0 },
    },
  };
}

/**
 * Takes one place of each kind in `limits` at once, each within its most, before what needs them
 * is made (an invitation's member and pending places, before its invitee's user): `taken`, or the
 * kind that is full, taking nothing. Counts not stored yet are counted from the index and stored.
 */
export async function reservePlaces(
  db: DynamoDBDocumentClient,
  table: string,
  organizationId: string,
  limits: readonly { counted: Counted; most: number }[],
): Promise<"taken" | Counted> {
  for (let attempt = 1; ; attempt += 1) {
    const sets: string[] = [];
    const conditions: string[] = ["attribute_exists(pk)"];
    const values: Record<string, number> = {};
    const reads = await readCounts(
      db,
      table,
      organizationId,
      limits.map((limit) => limit.counted),
    );
    if (!reads) throw new Error(`Organisation ${organizationId} is not stored`);
    for (const [n, { counted, most }] of limits.entries()) {
      const read = reads[n] as { count: number; stored: boolean };
      if (read.count >= most) return counted;
      const { attribute } = COUNTED[counted];
      if (read.stored) {
        sets.push(`${attribute} = ${attribute} + :one`);
        conditions.push(`${attribute} < :most${n}`);
        values[":one"] = 1;
        values[`:most${n}`] = most;
      } else {
        sets.push(`${attribute} = :first${n}`);
        conditions.push(`attribute_not_exists(${attribute})`);
        values[`:first${n}`] = read.count + 1;
      }
    }
    try {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: orgPk(organizationId) },
          UpdateExpression: `SET ${sets.join(", ")}`,
          ConditionExpression: conditions.join(" AND "),
          ExpressionAttributeValues: values,
        }),
      );
      return "taken";
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) || attempt === ATTEMPTS) throw error;
      // Another write took a place first: read the counts again and decide again.
      await pause(attempt);
    }
  }
}

/** Gives back one place of each of `counted`, taken by `reservePlaces` for what was not made after all. */
export async function releasePlaces(
  db: DynamoDBDocumentClient,
  table: string,
  organizationId: string,
  counted: readonly Counted[],
): Promise<void> {
  const givenBack = await placeGivenBack(db, table, organizationId, counted);
  if (givenBack) await writeTogether(db, [givenBack], undefined);
}
