import { ulid } from "ulid";

/** Prefixed ULIDs: `ver_`, `evt_`, `app_` + 26 Crockford base32 characters. */
export const ID_PREFIXES = { verification: "ver", event: "evt", app: "app" } as const;
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
