/**
 * The audit trail's signed digests, in the manner of CloudTrail's digest files: every few minutes
 * the sealer lists the records written since its last digest, each by its print (`auditPrint`),
 * links the digest to the one before it and has it signed by a key only the sealer may use; a
 * month's last digest closes the month. Writers never wait on one another (a record is one put),
 * and whoever can write records cannot write or sign a digest, so a record changed, put in,
 * removed or expired early after sealing is named by `checkMonth`.
 */
import { createHash } from "node:crypto";
import { AUDIT_RETENTION_MONTHS, auditTime, canonical, monthEnd, monthFrom, type RecordPrint } from "./audit.ts";

/** How often the sealer runs in a deployed stack. */
export const SEAL_INTERVAL_MINUTES = 5;
/**
 * How old a record must be before it is sealed: longer than any audited write takes from the
 * moment its id is made to the moment it lands (the longest audited function stops at 30 s).
 */
export const SEAL_MARGIN_MS = 2 * 60_000;
/** Past this age, a record no digest lists means sealing stopped, or a digest was taken away. */
export const SEAL_OVERDUE_MS = SEAL_INTERVAL_MINUTES * 60_000 + SEAL_MARGIN_MS + 5 * 60_000;
/** At most this many records a digest, so its item stays far under DynamoDB's 400 KB. */
export const DIGEST_RECORDS = 1000;
/** What a month's first digest follows: no digest before it. */
export const DIGEST_START = "0".repeat(64);

/** One digest: the records sealed since the one before it, in id order. */
export interface AuditDigest {
  /** The month (`YYYY-MM`) whose records it lists. */
  month: string;
  /** Its place among the month's digests, from 1. */
  seq: number;
  /** The hash of the digest before it (`digestHash`); `DIGEST_START` for the month's first. */
  prev: string;
  sealed_at: string;
  records: RecordPrint[];
  /** The month's last digest: no record of the month may come after it. */
  closes: boolean;
}

/** A digest with its signature (DER, base64), as the digests table keeps it. */
export interface SignedDigest {
  digest: AuditDigest;
  signature: string;
}

/** The SHA-256 a digest is signed over and the next digest names. */
export function digestHash(digest: AuditDigest): string {
  return createHash("sha256").update(canonical(digest)).digest("hex");
}

/** The months of the retention, the last one `now`'s, oldest first. */
export function retainedMonths(now: Date): string[] {
  const current = now.toISOString().slice(0, 7);
  return Array.from({ length: AUDIT_RETENTION_MONTHS }, (_, n) => monthFrom(current, n - AUDIT_RETENTION_MONTHS + 1));
}

/**
 * The digests that seal `unsealed` (the month's records after `last`, in id order) as of `now`:
 * those old enough to have landed, at most `DIGEST_RECORDS` a digest; the last one closes the month
 * once every record of it can have landed. Empty when there is nothing to seal.
 */
export function digestsToSeal(
  month: string,
  last: AuditDigest | undefined,
  unsealed: readonly RecordPrint[],
  now: Date,
): AuditDigest[] {
  if (last?.closes) return [];
  const settled = now.getTime() - SEAL_MARGIN_MS;
  const due = unsealed.filter((record) => auditTime(record.audit_id) <= settled);
  const closes = monthEnd(month) <= settled;
  if (due.length === 0 && !closes) return [];
  const digests: AuditDigest[] = [];
  let before = last;
  for (let start = 0; start === 0 || start < due.length; start += DIGEST_RECORDS) {
    const records = due.slice(start, start + DIGEST_RECORDS);
    const digest: AuditDigest = {
      month,
      seq: (before?.seq ?? 0) + 1,
      prev: before ? digestHash(before) : DIGEST_START,
      sealed_at: now.toISOString(),
      records,
      closes: closes && start + DIGEST_RECORDS >= due.length,
    };
    digests.push(digest);
    before = digest;
  }
  return digests;
}

/** What the check found wrong, by kind. */
export type FindingKind =
  | "forged_digest"
  | "missing_digest"
  | "edited"
  | "inserted"
  | "removed"
  | "unsealed"
  | "unclosed"
  | "stray";

export interface AuditFinding {
  kind: FindingKind;
  month: string;
  /** The record it is about; absent for a digest or the month as a whole. */
  audit_id?: string;
  /** The digest it is about, by its place in the month. */
  digest?: number;
  reason: string;
}

/** One month as checked. */
export interface MonthCheck {
  month: string;
  /** Records the month's digests list and the table keeps as listed. */
  sealed: number;
  /** Records too young to be sealed yet. */
  pending: number;
  findings: AuditFinding[];
}

/**
 * Checks a month's records (`records`, every one the table keeps in the month, in id order)
 * against its digests (in place order, each with whether its signature holds): every digest is
 * signed by the sealing key, in its place and linked to the one before; every record a digest
 * lists is kept with its print; every record kept is listed by a digest, or young enough not
 * to be sealed yet; a month that has ended is closed.
 */
export function checkMonth(input: {
  month: string;
  digests: readonly { signed: SignedDigest; valid: boolean }[];
  records: readonly RecordPrint[];
  now: Date;
}): MonthCheck {
  const { month, now } = input;
  const findings: AuditFinding[] = [];
  const found = (finding: Omit<AuditFinding, "month">) => findings.push({ month, ...finding });
  const listed = new Map<string, string>();
  const order: string[] = [];
  let before: AuditDigest | undefined;
  for (const [index, { signed, valid }] of input.digests.entries()) {
    const { digest } = signed;
    if (!valid || digest.month !== month) {
      found({
        kind: "forged_digest",
        digest: index + 1,
        reason: "the digest is not one the sealing key signed for this month",
      });
      continue;
    }
    if (digest.seq !== index + 1 || digest.prev !== (before ? digestHash(before) : DIGEST_START)) {
      found({
        kind: "missing_digest",
        digest: digest.seq,
        reason: `the digest does not follow the month's digest ${index}: one before it is missing or out of place`,
      });
    }
    for (const record of digest.records) {
      listed.set(record.audit_id, record.print);
      order.push(record.audit_id);
    }
    before = digest;
  }
  const lastListed = order.at(-1);
  const kept = new Set<string>();
  let sealed = 0;
  let pending = 0;
  for (const record of input.records) {
    kept.add(record.audit_id);
    const print = listed.get(record.audit_id);
    if (print === record.print) sealed += 1;
    else if (print !== undefined) {
      found({
        kind: "edited",
        audit_id: record.audit_id,
        reason: "the record was changed after it was sealed (its content, keys or expiry)",
      });
    } else if (before?.closes || (lastListed !== undefined && record.audit_id < lastListed)) {
      found({
        kind: "inserted",
        audit_id: record.audit_id,
        reason: "no digest lists the record, though one sealed its time: it was put in after sealing",
      });
    } else if (now.getTime() - auditTime(record.audit_id) > SEAL_OVERDUE_MS) {
      found({
        kind: "unsealed",
        audit_id: record.audit_id,
        reason:
          "no digest lists the record, though it is old enough to be sealed: sealing stopped, or its digest is gone",
      });
    } else pending += 1;
  }
  for (const [place, auditId] of order.entries()) {
    if (kept.has(auditId)) continue;
    const where =
      place === 0
        ? "the month's first sealed record"
        : place === order.length - 1
          ? "the month's last sealed record"
          : "a sealed record";
    found({ kind: "removed", audit_id: auditId, reason: `${where} is gone from the table` });
  }
  const ended = monthEnd(month) + SEAL_OVERDUE_MS < now.getTime();
  if (ended && !before?.closes && (input.records.length > 0 || input.digests.length > 0)) {
    found({ kind: "unclosed", reason: "the month has ended but no signed digest closes it" });
  }
  return { month, sealed, pending, findings };
}
