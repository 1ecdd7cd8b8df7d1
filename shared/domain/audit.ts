/**
 * The audit trail: one record for every staff action and every read of personal data, and
 * (with the portal) every customer change. Append only, kept two years; the customer-visible
 * resource never names a reviewer, this trail does.
 */
import { createHash } from "node:crypto";
import { decodeTime } from "ulid";
import { newId } from "./ids.ts";
import type { Actor, AuditRecord } from "./responses/audit.ts";
import { isoSeconds } from "./time.ts";
import * as z from "./zod.ts";

export const AUDIT_RETENTION_SECONDS = 2 * 366 * 24 * 60 * 60;

export const AUDIT_ACTIONS = [
  "review.claimed",
  "review.decided",
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

/** The UTC month (`YYYY-MM`) a record belongs to, from the time in its id. */
export function auditMonth(auditId: string): string {
  return new Date(decodeTime(auditId.slice("aud_".length))).toISOString().slice(0, 7);
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
    z.refine(
      (id) =>
        AUDIT_ID_PATTERN.test(id) && /^aud_[0-7]/.test(id) && decodeTime(id.slice("aud_".length)) < AUDIT_TIME_END,
    ),
  ),
});

/**
 * Tamper evidence, in the spirit of CloudTrail's log file integrity: the records of a month form
 * a chain, each carrying its place in it and the SHA-256 of the record before it, and its own
 * hash covering both. A record changed or put over another no longer hashes to what the next
 * record (or, for the last, the month's head) holds, and `brokenLink` names it.
 */
export interface ChainLink {
  /** The record's place in its month's chain, from 1. */
  seq: number;
  /** The hash of the record before it; `CHAIN_START` for the first. */
  prev: string;
  /** This record's hash: of the record, `seq` and `prev`. */
  hash: string;
}

/** Where each month's chain starts: no record before the first. */
export const CHAIN_START = "0".repeat(64);

/** `value` as JSON with every object's keys in order, so equal records hash alike wherever they were read. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The hash a record at `seq` after `prev` has. */
export function linkHash(record: AuditRecord, seq: number, prev: string): string {
  return createHash("sha256").update(canonical({ record, seq, prev })).digest("hex");
}

/** The link that puts `record` after the chain's last link (`head`), or first in an empty month. */
export function nextLink(record: AuditRecord, head: Pick<ChainLink, "seq" | "hash"> | undefined): ChainLink {
  const seq = (head?.seq ?? 0) + 1;
  const prev = head?.hash ?? CHAIN_START;
  return { seq, prev, hash: linkHash(record, seq, prev) };
}

/** A record of the chain with its link, as the trail keeps it. */
export interface ChainedRecord {
  record: AuditRecord;
  link: ChainLink;
}

/** Where a chain breaks, and why. */
export interface BrokenLink {
  audit_id: string;
  seq: number;
  reason: string;
}

/**
 * The first record of one month's chain (`records`, in any order) that does not follow from the
 * one before it, or undefined when the chain holds up to `head`, its last link. A month whose
 * oldest records the table's retention has removed starts at its oldest remaining record.
 */
export function brokenLink(
  records: readonly ChainedRecord[],
  head: Pick<ChainLink, "seq" | "hash"> | undefined,
): BrokenLink | undefined {
  const ordered = [...records].sort((a, b) => a.link.seq - b.link.seq);
  let before: ChainedRecord | undefined;
  for (const current of ordered) {
    const { record, link } = current;
    const at = { audit_id: record.audit_id, seq: link.seq };
    if (linkHash(record, link.seq, link.prev) !== link.hash) {
      return { ...at, reason: "the record does not hash to the hash it carries: it was changed" };
    }
    if (before) {
      if (link.seq !== before.link.seq + 1) {
        return { ...at, reason: `the record before it (place ${link.seq - 1}) is missing or holds another place` };
      }
      if (link.prev !== before.link.hash) {
        return {
          audit_id: before.record.audit_id,
          seq: before.link.seq,
          reason: `the next record (${record.audit_id}) was chained to another record in this place: it was put over`,
        };
      }
    } else if (link.seq === 1 && link.prev !== CHAIN_START) {
      return { ...at, reason: "the month's first record is chained to a record before it" };
    }
    before = current;
  }
  if (head && (!before || before.link.seq !== head.seq || before.link.hash !== head.hash)) {
    const last = before ? { audit_id: before.record.audit_id, seq: before.link.seq } : { audit_id: "", seq: 0 };
    return { ...last, reason: `the chain's head names place ${head.seq}, which the month's records do not end with` };
  }
  return undefined;
}
