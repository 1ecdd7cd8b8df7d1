/**
 * Sandbox reference prefixes: an `external_reference_id` starting with one of these forces the
 * outcome for any readable file, so an integration can exercise every path without a matching
 * certificate. Production ignores them.
 */
import type { Environment } from "./environments.ts";
import type { ReasonCode } from "./reasons.ts";
import type { Result } from "./state.ts";

export type ForcedOutcome =
  | { kind: "completed"; result: Result; reasonCode: ReasonCode }
  | { kind: "failed"; reasonCode: ReasonCode }
  /** Waits in review, then is decided as a reviewer would, a few seconds later. */
  | { kind: "review"; decision: { result: "verified" | "rejected"; reasonCode: ReasonCode } };

export const SANDBOX_PREFIXES = {
  test_verified_: { kind: "completed", result: "verified", reasonCode: "verified" },
  test_rejected_: { kind: "completed", result: "rejected", reasonCode: "document_not_found_at_issuer" },
  test_inconclusive_: { kind: "completed", result: "inconclusive", reasonCode: "review_timeout" },
  test_failed_: { kind: "failed", reasonCode: "document_unreadable" },
  test_review_verified_: { kind: "review", decision: { result: "verified", reasonCode: "verified" } },
  test_review_rejected_: { kind: "review", decision: { result: "rejected", reasonCode: "not_genuine" } },
} as const satisfies Record<string, ForcedOutcome>;

/** How long a forced review waits before its decision. */
export const SANDBOX_REVIEW_DELAY_MS = 3_000;

/** The outcome a sandbox reference forces, if any. */
export function forcedOutcome(
  environment: Environment,
  reference: string | undefined,
): { prefix: string; outcome: ForcedOutcome } | undefined {
  if (environment !== "sandbox" || !reference) return undefined;
  const match = Object.entries(SANDBOX_PREFIXES).find(([prefix]) => reference.startsWith(prefix));
  return match && { prefix: match[0], outcome: match[1] };
}
