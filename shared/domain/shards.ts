/**
 * Index keys that every write of a day, or of the whole service, would otherwise share are
 * spread over `PARTITION_SHARDS` partitions: the key gets a shard suffix taken from the item's
 * own id. The formula, which the readers and `docs/capacity.md` rely on:
 *
 *   shard(id) = FNV-1a 32-bit hash of the id's UTF-16 code units, modulo PARTITION_SHARDS
 *   key#shard = `${key}#${shard as two digits}`, e.g. `2026-11-27#07`, `due#13`
 *
 * A DynamoDB partition takes about 1,000 writes a second; sixteen shards keep the busiest of
 * these keys under that up to about 16,000 creates a second, past the service's other limits.
 */

export const PARTITION_SHARDS = 16;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a (32 bits) of a string's UTF-16 code units: cheap, stable, and even enough for spreading keys. */
export function fnv1a(value: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

/** The shard of an id: the same id always lands in the same one. */
export function shardOf(id: string): number {
  return fnv1a(id) % PARTITION_SHARDS;
}

const suffix = (shard: number) => String(shard).padStart(2, "0");

/** The partition `id` writes under `key`. */
export function shardedKey(key: string, id: string): string {
  return `${key}#${suffix(shardOf(id))}`;
}

/**
 * Every partition a reader of `key` asks: each shard, and `key` itself, under which items
 * written before the key was sharded still sit (they leave as they are expired, delivered or
 * parked; the one extra query costs a read unit when empty).
 */
export function partitionsOf(key: string): string[] {
  return [...Array.from({ length: PARTITION_SHARDS }, (_, shard) => `${key}#${suffix(shard)}`), key];
}
