import type { VerificationResource } from "../../domain/responses/verification.ts";
import { isoSeconds } from "../../domain/time.ts";
import { toResource, type VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

/** A sync request waits this long for the decision (a terminal state, or review) before it answers `processing`. */
export const SYNC_WAIT_SECONDS = 25;
/** How often a sync request reads the verification again while its issuer lookup is under way. */
export const SYNC_POLL_MS = 200;

export interface DecisionWaitDeps {
  verifications: Pick<VerificationStore, "get">;
  sleep: (ms: number) => Promise<void>;
}

/**
 * The verification once it is decided within `SYNC_WAIT_SECONDS` (a terminal state, or
 * `in_review`, which waits for a person rather than for processing), read again every
 * `SYNC_POLL_MS`; undefined when the wait ends first (the pipeline finishes it). `started`, when
 * given, is the checks a sync confirm runs itself: their result is taken as it comes back, and
 * the verification is read again only when they left it `processing` (waiting for the issuer);
 * when they fail or outlast the wait, nothing is read.
 */
export async function decidedWithin(
  deps: DecisionWaitDeps,
  verificationId: string,
  started?: Promise<VerificationItem | undefined>,
): Promise<VerificationItem | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let waited = false;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      waited = true;
      resolve(undefined);
    }, SYNC_WAIT_SECONDS * 1000);
  });
  const decided = (candidate: VerificationItem | undefined) =>
    candidate && candidate.status !== "processing" ? candidate : undefined;
  try {
    if (started) {
      const processed = await Promise.race([started, timeout]);
      if (processed?.status !== "processing") return decided(processed);
    }
    while (!waited) {
      await Promise.race([deps.sleep(SYNC_POLL_MS), timeout]);
      const current = decided(await deps.verifications.get(verificationId));
      if (current) return current;
    }
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export interface AwaitDecisionDeps extends DecisionWaitDeps {
  clock: Clock;
}

/**
 * A `sync` verification by its keys, created straight in `processing`: its checks run in the
 * pipeline (the issuer queue's reader asks e-Devlet), so the create waits as a sync confirm does
 * for the decision; it answers `processing` when the decision takes longer.
 */
export async function awaitDecision(
  deps: AwaitDecisionDeps,
  created: VerificationResource,
): Promise<VerificationResource> {
  if (created.process_type !== "sync" || created.status !== "processing") return created;
  const decided = await decidedWithin(deps, created.verification_id);
  return decided ? toResource(decided, isoSeconds(deps.clock.now())) : created;
}
