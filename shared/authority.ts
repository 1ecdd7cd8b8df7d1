/**
 * Authority confirmation: whether the issuer confirms the document (for YOK_STUDENT, the
 * issuer's barcode service). An adapter behind an interface; where none is configured the
 * check is skipped and the result can only be inconclusive. Never invent a `verified`.
 */
import type { Environment } from "./config.ts";
import type { VerificationItem } from "./verification.ts";

export type AuthorityOutcome = "confirmed" | "not_confirmed" | "inconclusive" | "error";

export interface AuthorityAdapter {
  readonly name: string;
  confirm(verification: VerificationItem, document: Uint8Array): Promise<AuthorityOutcome>;
}

/** Sandbox prefixes of external_reference_id and the authority outcome each one asks for. */
export const SANDBOX_OUTCOME_PREFIXES = {
  test_verified_: "confirmed",
  test_rejected_: "not_confirmed",
  test_inconclusive_: "inconclusive",
  test_failed_: "error",
} as const satisfies Record<string, AuthorityOutcome>;

/**
 * The sandbox's authority: the client chooses the outcome by the reference's prefix, and any
 * other reference is confirmed, so integrations can exercise every path.
 */
export const sandboxAuthority: AuthorityAdapter = {
  name: "sandbox",
  async confirm(verification) {
    const reference = verification.external_reference_id ?? "";
    const match = Object.entries(SANDBOX_OUTCOME_PREFIXES).find(([prefix]) => reference.startsWith(prefix));
    return match ? match[1] : "confirmed";
  },
};

/**
 * The adapter for an environment. Production has no issuer integration configured yet, so
 * it has none: its verifications end inconclusive with reason authority_check_unavailable.
 */
export function authorityFor(environment: Environment): AuthorityAdapter | undefined {
  return environment === "sandbox" ? sandboxAuthority : undefined;
}
