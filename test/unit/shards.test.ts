import { describe, expect, it } from "vitest";
import { newId } from "#shared/domain/ids";
import { PARTITION_SHARDS, partitionsOf, shardedKey } from "#shared/domain/shards";

describe("the deadline index's shards under load", () => {
  it("spreads 10,000 new verifications of one day evenly: no partition takes more than 1.25 times its share", () => {
    const writes = new Map<string, number>();
    for (let i = 0; i < 10_000; i += 1) {
      const key = shardedKey("2026-11-23", newId("verification"));
      writes.set(key, (writes.get(key) ?? 0) + 1);
    }
    // Every key the store writes is one its reader asks.
    expect([...writes.keys()].every((key) => partitionsOf("2026-11-23").includes(key))).toBe(true);
    expect(writes.size).toBe(PARTITION_SHARDS);
    const share = 10_000 / PARTITION_SHARDS;
    console.log(
      `deadline index: 10,000 creates over ${writes.size} partitions, busiest ${Math.max(...writes.values())}, quietest ${Math.min(...writes.values())} (even share ${share})`,
    );
    expect(Math.max(...writes.values())).toBeLessThanOrEqual(share * 1.25);
    expect(Math.min(...writes.values())).toBeGreaterThanOrEqual(share * 0.75);
  });
});
