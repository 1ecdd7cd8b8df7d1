import { createHash } from "node:crypto";
import { encodeTime, ulid } from "ulid";

/** Prefixed ULIDs: `ver_`, `evt_`, `app_`, `aud_`, `org_` + 26 Crockford base32 characters. */
export const ID_PREFIXES = {
  verification: "ver",
  event: "evt",
  app: "app",
  audit: "aud",
  organization: "org",
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

const ULID_BODY = "[0-9A-HJKMNP-TV-Z]{26}";
export const ID_PATTERNS = Object.fromEntries(
  Object.entries(ID_PREFIXES).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_${ULID_BODY}$`)]),
) as Record<IdKind, RegExp>;

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return ID_PATTERNS[kind].test(value);
}

/** The first id of `kind` made at `timeMs` or later could be: ids sort by their time. */
export function firstIdAt(kind: IdKind, timeMs: number): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(timeMs, 10)}${"0".repeat(16)}`;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A ULID that is the same every time for the same time and seed: the time part is `timeMs`,
 * the random part comes from a hash of `seed`. Lets a consumer that sees one change twice
 * name its consequence the same both times.
 */
export function deterministicId(kind: IdKind, timeMs: number, seed: string): string {
  let time = "";
  for (let rest = timeMs, i = 0; i < 10; i += 1, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  const hash = createHash("sha256").update(seed).digest();
  let bits = 0n;
  for (const byte of hash.subarray(0, 10)) bits = (bits << 8n) | BigInt(byte);
  let random = "";
  for (let i = 0; i < 16; i += 1, bits >>= 5n) random = CROCKFORD[Number(bits & 31n)] + random;
  return `${ID_PREFIXES[kind]}_${time}${random}`;
}
