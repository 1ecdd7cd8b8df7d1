/**
 * The audit trail: one record for every staff action and every read of personal data, and
 * (with the portal) every customer change. Append only, kept two years; the customer-visible
 * resource never names a reviewer, this trail does.
 */
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
  // Portal changes.
  "app.created",
  "key.created",
  "key.revoked",
  "webhook.updated",
  "webhook.secret_rotated",
  "webhook.tested",
  "event.replayed",
  "user.invited",
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
    ...entry,
    request_id: context.requestId,
    source_ip: context.sourceIp,
  };
}

/** The UTC month (`YYYY-MM`) a record belongs to, from the time in its id. */
export function auditMonth(auditId: string): string {
  return new Date(decodeTime(auditId.slice("aud_".length))).toISOString().slice(0, 7);
}

/** Where a page of the trail ended: the last record's id (records sort by it). */
export const auditPositionSchema = z.strictObject({ before: z.string().check(z.regex(AUDIT_ID_PATTERN)) });
