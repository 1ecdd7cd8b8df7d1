import type { VerificationItem } from "../domain/verification.ts";

/** What the issuing authority says of a document. */
export type AuthorityOutcome = "confirmed" | "not_confirmed" | "inconclusive" | "error";

/**
 * The issuing authority: whether it confirms the document (for YOK_STUDENT, the issuer's
 * barcode service). Where none is configured the check cannot run, and the result can only
 * be inconclusive: never invent a `verified`.
 */
export interface Authority {
  readonly name: string;
  confirm(verification: VerificationItem, document: Uint8Array): Promise<AuthorityOutcome>;
}
