/**
 * The audit trail: one record for every staff action and every read of personal data, and
 * (with the portal) every customer change. Append only, kept two years; the customer-visible
 * resource never names a reviewer, this trail does.
 */
import { createHash } from "node:crypto";
import { decodeTime, encodeTime } from "ulid";
import { newId } from "./ids.ts";
import type { Actor, AuditRecord } from "./responses/audit.ts";
import { fnv1a } from "./shards.ts";
import { isoSeconds } from "./time.ts";
import * as z from "./zod.ts";

export const AUDIT_RETENTION_SECONDS = 2 * 366 * 24 * 60 * 60;

/** The months a listing and the sealer read back: the two years kept, this month included. */
export const AUDIT_RETENTION_MONTHS = 25;

export const AUDIT_ACTIONS = [
  "review.claimed",
  "review.decided",
  // A reviewer asked the issuer again for an item it gave no answer for.
  "review.issuer_asked",
  "document.viewed",
  // Reading a verification shows personal data (names, extracted fields): it is recorded too.
  "verification.viewed",
  // A portal search lists references and filenames: recorded like a view.
  "verifications.searched",
  // An app's events list shows what each event sent, personal data included: recorded like a view.
  "events.viewed",
  // The trail itself names people and their addresses: an admin's reading of it is recorded.
  "audit.viewed",
  // Portal changes.
  "app.created",
  "key.created",
  "key.revoked",
  "key.renamed",
  "webhook.updated",
  "webhook.secret_rotated",
  "webhook.tested",
  "event.replayed",
  "user.invited",
  // Member lifecycle, from the portal (owners) or the ops command.
  "member.removed",
  "member.role_changed",
  "member.disabled",
  // What only operators do, through the ops command.
  "organization.created",
  "app.attached",
  "app.disabled",
  "app.enabled",
  "webhook.secrets_resealed",
  "staff.added",
  "staff.group_added",
  "staff.group_removed",
  "staff.disabled",
  "staff.enabled",
  "verification.erased",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ID_PATTERN = /^aud_[0-9A-HJKMNP-TV-Z]{26}$/;

/** What an action records; the trail adds its id and time. */
export type AuditEntry = Omit<AuditRecord, "audit_id" | "at">;

/** Who asked, from where, in which request: what every audited action carries. */
export interface AuditContext {
  actor: Actor;
  requestId: string;
  sourceIp: string;
  /** The organisation a portal user acts in: every record of theirs names it. */
  organizationId?: string;
}

export function auditRecord(
  context: AuditContext,
  now: Date,
  entry: Omit<AuditEntry, "actor" | "request_id" | "source_ip">,
): AuditRecord {
  return {
    // The ULID's own millisecond clock, finer than `at`: records of one second keep their order.
    audit_id: newId("audit"),
    at: isoSeconds(now),
    actor: context.actor,
    ...(context.organizationId ? { organization_id: context.organizationId } : {}),
    ...entry,
    request_id: context.requestId,
    source_ip: context.sourceIp,
  };
}

/** When a record was made (epoch milliseconds), from the time in its id. */
export function auditTime(auditId: string): number {
  return decodeTime(auditId.slice("aud_".length));
}

/**
 * The ids of the records made from `since` (inclusive) to `until` (exclusive), as the first and
 * the last id either can have: ids sort by the time in them.
 */
export function auditIdsBetween(since: Date, until: Date): { first: string; last: string } {
  return {
    first: `aud_${encodeTime(Math.max(0, since.getTime()), 10)}${"0".repeat(16)}`,
    last: `aud_${encodeTime(Math.max(0, until.getTime() - 1), 10)}${"Z".repeat(16)}`,
  };
}

/** The letters of a ULID, in their order. */
const ULID_LETTERS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The greatest audit id below `id` (undefined below the least): "older than `id`" as an id
 * range's inclusive end, which a key condition can hold and an index's cursor would need the
 * record's partition for.
 */
export function auditIdBelow(id: string): string | undefined {
  const letters = [...id.slice("aud_".length)];
  for (let at = letters.length - 1; at >= 0; at -= 1) {
    const place = ULID_LETTERS.indexOf(letters[at] ?? "");
    if (place > 0) {
      letters[at] = ULID_LETTERS[place - 1] ?? "";
      return `aud_${letters.join("")}`;
    }
    letters[at] = "Z";
  }
  return undefined;
}

/** The UTC month (`YYYY-MM`) a record belongs to, from the time in its id. */
export function auditMonth(auditId: string): string {
  return new Date(auditTime(auditId)).toISOString().slice(0, 7);
}

/**
 * How many chains the portal's records are shared among, by organisation (the house's hash,
 * `fnv1a` of `shards.ts`): each organisation's records always land in the same one.
 */
export const PORTAL_CHAINS = 8;

/** The portal's chain of share `share` (0 to `PORTAL_CHAINS` - 1). */
const portalChain = (share: number) => `portal-${String(share).padStart(2, "0")}`;

/**
 * The chains a month's records are kept in, each a partition of its own: one for staff, one for
 * operators, and the portal's by organisation, so no tenant's audited traffic lands where staff's
 * or most other tenants' does (DynamoDB serves one partition key about 1,000 writes a second, and
 * ids that grow with time keep a key's writes on one partition). The sealer reads a month's
 * chains together and seals the month as one (`audit-digests.ts`). `""` is the whole month,
 * where records were kept before chains: read, sealed and checked, never written to.
 */
export const AUDIT_CHAINS: readonly string[] = [
  "staff",
  "operator",
  ...Array.from({ length: PORTAL_CHAINS }, (_, share) => portalChain(share)),
  "",
];

/** Whether a stored value is an actor as records name one (a record read back may have been put by anyone). */
export function isActor(value: unknown): value is Actor {
  if (value === null || typeof value !== "object") return false;
  const { pool, sub, username } = value as Record<string, unknown>;
  return (
    (pool === "staff" || pool === "portal" || pool === "operator") &&
    typeof sub === "string" &&
    typeof username === "string"
  );
}

/** The chain a record is kept in: its actor's pool, and for the portal its organisation's share. */
export function auditChain(record: Pick<AuditRecord, "actor" | "organization_id">): string {
  if (record.actor.pool !== "portal") return record.actor.pool;
  return portalChain(fnv1a(record.organization_id ?? record.actor.sub) % PORTAL_CHAINS);
}

/** The partition a month's chain is kept in: `YYYY-MM#<chain>`, the month alone for `""`. */
export const auditPartition = (month: string, chain: string): string => (chain ? `${month}#${chain}` : month);

/** The partition a record is written to: its month's, of its chain. */
export const auditPlace = (record: Pick<AuditRecord, "audit_id" | "actor" | "organization_id">): string =>
  auditPartition(auditMonth(record.audit_id), auditChain(record));

/** The month (`YYYY-MM`) `by` months after `month` (before it, for a negative `by`). */
export function monthFrom(month: string, by: number): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, number - 1 + by, 1)).toISOString().slice(0, 7);
}

/** The first moment after `month` (epoch milliseconds). */
export function monthEnd(month: string): number {
  return Date.parse(`${monthFrom(month, 1)}-01T00:00:00Z`);
}

/** The first moment no audit id names: its month would have a year of five digits. */
const AUDIT_TIME_END = Date.UTC(10000, 0, 1);

/**
 * Where a page of the trail ended: the last record's id (records sort by it), whose time (its
 * first ten characters) is one a month of the trail can hold: not past the 48 bits of a ULID's
 * time, nor past the year 9999.
 */
export const auditPositionSchema = z.strictObject({
  before: z.string().check(
    z.regex(AUDIT_ID_PATTERN),
    z.refine((id) => AUDIT_ID_PATTERN.test(id) && /^aud_[0-7]/.test(id) && auditTime(id) < AUDIT_TIME_END),
  ),
});

/**
 * When a record expires (epoch seconds): the retention counted from the end of its month, so a
 * month's records expire together, never one at a time, and two years after their month was
 * sealed and closed (`seal.ts`).
 */
export function auditExpiry(auditId: string): number {
  return Math.floor(monthEnd(auditMonth(auditId)) / 1000) + AUDIT_RETENTION_SECONDS;
}

/** `value` as JSON with every object's keys in order, so equal records hash alike wherever they were read. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * A record's print: the SHA-256 of everything kept of it, every attribute as stored (its
 * partition and expiry included), so no attribute can change unseen.
 */
export function auditPrint(stored: Record<string, unknown>): string {
  return sha256(canonical(stored));
}

/** One record as the sealer and the check read it: its id and its print. */
export interface RecordPrint {
  audit_id: string;
  print: string;
}
