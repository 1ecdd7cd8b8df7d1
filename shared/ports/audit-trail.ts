import type { ChainedRecord, ChainLink } from "../domain/audit.ts";
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

/** The trail's months as chains (`domain/audit.ts`), for checking that no record was changed. */
export interface AuditChain {
  /** The month's last link; undefined before its first record. */
  head(month: string): Promise<Pick<ChainLink, "seq" | "hash"> | undefined>;
  /** Every record of the month (`YYYY-MM`) with its link, in any order. */
  chained(month: string): Promise<ChainedRecord[]>;
}
