import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { CHANGE_STREAM_READING } from "#shared/declarations/stream-filter";
import { consume } from "../../local/pipeline.ts";

/** `count` changes of each of `items` verifications, interleaved as a shard holds them. */
function records(items: number, count: number): DynamoDBRecord[] {
  const all: DynamoDBRecord[] = [];
  for (let change = 0; change < count; change++) {
    for (let item = 0; item < items; item++) {
      all.push({
        dynamodb: {
          Keys: { verification_id: { S: `item-${item}` } },
          SequenceNumber: String(1000 + all.length),
        },
      });
    }
  }
  return all;
}

const idOf = (record: DynamoDBRecord) => record.dynamodb?.Keys?.verification_id?.S as string;

describe("the local stream reader's lanes (CHANGE_STREAM_READING)", () => {
  it("keeps each item's changes in order, in batches of at most batchSize, with lanes running side by side", async () => {
    const shard = records(30, 4);
    const batches: DynamoDBRecord[][] = [];
    let running = 0;
    let mostAtOnce = 0;
    const failedAt = await consume(shard, async (event: DynamoDBStreamEvent) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      batches.push(event.Records);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return { batchItemFailures: [] };
    });

    expect(failedAt).toBeUndefined();
    expect(batches.flat()).toHaveLength(shard.length);
    expect(Math.max(...batches.map((batch) => batch.length))).toBeLessThanOrEqual(CHANGE_STREAM_READING.batchSize);
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(mostAtOnce).toBeLessThanOrEqual(CHANGE_STREAM_READING.parallelizationFactor);
    // Each item's records arrive in the order the shard holds them.
    const seen = new Map<string, number[]>();
    for (const record of batches.flat()) {
      seen.set(idOf(record), [...(seen.get(idOf(record)) ?? []), Number(record.dynamodb?.SequenceNumber)]);
    }
    for (const sequence of seen.values()) expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
  });

  it("answers the earliest record any lane failed at, and a lane hands on nothing after its failure", async () => {
    const shard = records(12, 3);
    const failing = new Set([shard[20]?.dynamodb?.SequenceNumber, shard[7]?.dynamodb?.SequenceNumber]);
    const handed: string[] = [];
    const failedAt = await consume(shard, async (event) => {
      for (const record of event.Records) {
        const sequence = record.dynamodb?.SequenceNumber as string;
        if (failing.has(sequence)) return { batchItemFailures: [{ itemIdentifier: sequence }] };
        handed.push(sequence);
      }
      return { batchItemFailures: [] };
    });

    expect(failedAt).toBe(7);
    // The item that failed at record 7 has its later changes (19, 31) held back with it.
    const failedItem = idOf(shard[7] as DynamoDBRecord);
    const laterOfThatItem = shard.slice(8).filter((record) => idOf(record) === failedItem);
    for (const record of laterOfThatItem) expect(handed).not.toContain(record.dynamodb?.SequenceNumber);
  });
});
