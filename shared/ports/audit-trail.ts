import type { AuditRecord } from "../domain/responses/audit.ts";

/** Which records a listing reads: one verification's, one actor's, or all. */
export type AuditFilter = { verificationId: string } | { actorSub: string } | Record<string, never>;

/** The append-only audit trail. */
export interface AuditTrail {
  /** Keeps `record`; never replaces one. */
  append(record: AuditRecord): Promise<void>;
  /** Up to `limit` records, newest first, older than the record `before` when given; `more` when older ones remain. */
  page(filter: AuditFilter, limit: number, before?: string): Promise<{ records: AuditRecord[]; more: boolean }>;
}
