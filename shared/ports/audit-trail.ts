import type { AuditAction, RecordPrint } from "../domain/audit.ts";
import type { SignedDigest } from "../domain/audit-digests.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";

/** Which records a listing reads: one verification's, one actor's, or all. */
export type AuditFilter = { verificationId: string } | { actorSub: string } | Record<string, never>;

/** Within a filter's records: one action's, and those made from `since` until (before) `until`. */
export interface AuditNarrowing {
  action?: AuditAction;
  since?: Date;
  until?: Date;
}

/** The append-only audit trail. */
export interface AuditTrail {
  /** Keeps `record`; never replaces one. */
  append(record: AuditRecord): Promise<void>;
  /** Keeps every one of `records` (one read's, a record per verification it showed); never replaces one. */
  appendAll(records: readonly AuditRecord[]): Promise<void>;
  /** Up to `limit` records, newest first, older than the record `before` when given; `more` when older ones remain. */
  page(
    filter: AuditFilter,
    limit: number,
    before?: string,
    narrowing?: AuditNarrowing,
  ): Promise<{ records: AuditRecord[]; more: boolean }>;
}

/** The trail's records as the sealer and the check read them: by their prints. */
export interface AuditPrints {
  /** Every record the month (`YYYY-MM`) keeps, after the record `after` when given, in id order. */
  prints(month: string, after?: string): Promise<RecordPrint[]>;
}

/** The trail's records kept where no month's reading finds them. */
export interface AuditStrays {
  /** The ids of records kept outside their own month (another month, or a place that is no month). */
  strays(): Promise<string[]>;
}

/** The signed digests, kept where no writer of records may write. */
export interface AuditDigests {
  /** The month's digests, in place order. */
  digests(month: string): Promise<SignedDigest[]>;
  /** The month's last digest, or undefined before its first. */
  last(month: string): Promise<SignedDigest | undefined>;
  /** Keeps a digest in its place; false when the place was taken (another sealer ran at once). */
  keep(digest: SignedDigest): Promise<boolean>;
}

/** Signs a digest's hash with the sealing key (KMS, `ECC_NIST_P256`). */
export interface DigestSigner {
  /** The signature (DER, base64) over the SHA-256 `hash` (hex). */
  sign(hash: string): Promise<string>;
}

/** Checks a digest's signature with the sealing key's public half. */
export interface DigestVerifier {
  verify(hash: string, signature: string): Promise<boolean>;
}
