import type { Authority, AuthorityOutcome } from "../ports/authority.ts";

/** Sandbox prefixes of external_reference_id and the authority outcome each one asks for. */
const SANDBOX_OUTCOME_PREFIXES = {
  test_verified_: "confirmed",
  test_rejected_: "not_confirmed",
  test_inconclusive_: "inconclusive",
  test_failed_: "error",
} as const satisfies Record<string, AuthorityOutcome>;

/**
 * The sandbox's authority: the client chooses the outcome by the reference's prefix, and any
 * other reference is confirmed, so integrations can exercise every path.
 */
export const sandboxAuthority: Authority = {
  name: "sandbox",
  async confirm(verification) {
    const reference = verification.external_reference_id ?? "";
    const match = Object.entries(SANDBOX_OUTCOME_PREFIXES).find(([prefix]) => reference.startsWith(prefix));
    return match ? match[1] : "confirmed";
  },
};
