import type { VerificationResource } from "../../domain/responses/verification.ts";
import { isoSeconds } from "../../domain/time.ts";
import { toResource } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { SYNC_POLL_MS, SYNC_WAIT_SECONDS } from "./confirm-upload.ts";

export interface AwaitDecisionDeps {
  verifications: Pick<VerificationStore, "get">;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
}

/**
 * A `sync` verification by its keys, created straight in `processing`: its checks run in the
 * pipeline (the issuer queue's reader asks e-Devlet), so the create waits, as a sync confirm
 * does, up to `SYNC_WAIT_SECONDS` for the decision (a terminal state, or review), reading the
 * verification again; it answers `processing` when the decision takes longer.
 */
export async function awaitDecision(
  deps: AwaitDecisionDeps,
  created: VerificationResource,
): Promise<VerificationResource> {
  if (created.process_type !== "sync" || created.status !== "processing") return created;
  const until = deps.clock.now().getTime() + SYNC_WAIT_SECONDS * 1000;
  while (deps.clock.now().getTime() < until) {
    await deps.sleep(SYNC_POLL_MS);
    const item = await deps.verifications.get(created.verification_id);
    if (item && item.status !== "processing") return toResource(item, isoSeconds(deps.clock.now()));
  }
  return created;
}
