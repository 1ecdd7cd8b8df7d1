/**
 * Which change-stream records reach the consumer: modifications whose new state has an
 * event (a Lambda event-source filter pattern; the local runtime's poller applies the same).
 */
export const CHANGE_STREAM_FILTER = {
  eventName: ["MODIFY"],
  dynamodb: { NewImage: { status: { S: ["processing", "in_review", "completed", "failed", "expired"] } } },
} as const;

/**
 * How the consumer reads each shard of the stream: batches of up to ten records, and up to ten
 * batches of one shard at once. Lambda still hands each item's records over in order, and the
 * consumer needs no other order; a shard otherwise waits on one verification's checks at a time.
 */
export const CHANGE_STREAM_READING = { batchSize: 10, parallelizationFactor: 10 } as const;

type Pattern = { readonly [key: string]: Pattern | readonly string[] };

/** Whether `record` matches `pattern` as Lambda matches equality filters: every listed field, one of its values. */
export function matchesFilter(record: unknown, pattern: Pattern = CHANGE_STREAM_FILTER): boolean {
  if (typeof record !== "object" || record === null) return false;
  return Object.entries(pattern).every(([key, expected]) => {
    const value = (record as Record<string, unknown>)[key];
    return Array.isArray(expected) ? expected.includes(value as string) : matchesFilter(value, expected as Pattern);
  });
}
