/**
 * Pages of queries: one that may filter and reads on until the page is full, one that reads one
 * item more than asked to know whether another page follows, and a count of what a query matches.
 */
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";

/** A filtered page reads at most this many times, so a sparse filter cannot hold a request for long. */
const MAX_READS = 5;

/**
 * Up to `limit` items of `input`, and the key to go on from when the index may hold more
 * (DynamoDB's `LastEvaluatedKey`: after a filter it may name an item the page does not show).
 */
export async function queryPage<Item>(
  db: DynamoDBDocumentClient,
  limit: number,
  input: Omit<QueryCommandInput, "Limit">,
): Promise<{ items: Item[]; lastKey: Record<string, unknown> | undefined }> {
  const items: Item[] = [];
  let lastKey = input.ExclusiveStartKey;
  for (let reads = 0; reads < MAX_READS; reads++) {
    const page = await db.send(new QueryCommand({ ...input, Limit: limit - items.length, ExclusiveStartKey: lastKey }));
    items.push(...((page.Items ?? []) as Item[]));
    lastKey = page.LastEvaluatedKey;
    if (!lastKey || items.length >= limit) break;
  }
  return { items, lastKey };
}

/**
 * Up to `limit` items of `input`, read with one more than asked so the answer knows whether `more`
 * follow: one read. A filter applies after DynamoDB reads, so a filtered query reads on until one
 * more than asked has matched or the partition ends.
 */
export async function queryWithMore<Item>(
  db: DynamoDBDocumentClient,
  limit: number,
  input: Omit<QueryCommandInput, "Limit">,
): Promise<{ items: Item[]; more: boolean }> {
  if (input.FilterExpression === undefined) {
    const { Items = [] } = await db.send(new QueryCommand({ ...input, Limit: limit + 1 }));
    return { items: Items.slice(0, limit) as Item[], more: Items.length > limit };
  }
  const items: Item[] = [];
  let lastKey = input.ExclusiveStartKey;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: lastKey }));
    items.push(...((page.Items ?? []) as Item[]));
    lastKey = page.LastEvaluatedKey;
  } while (lastKey && items.length <= limit);
  return { items: items.slice(0, limit), more: items.length > limit };
}

/** How many items `input` matches (after its filter), every page of it counted. */
export async function countMatching(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, "Limit" | "Select">,
): Promise<number> {
  let count = 0;
  let lastKey = input.ExclusiveStartKey;
  do {
    const page = await db.send(new QueryCommand({ ...input, Select: "COUNT", ExclusiveStartKey: lastKey }));
    count += page.Count ?? 0;
    lastKey = page.LastEvaluatedKey;
  } while (lastKey);
  return count;
}
