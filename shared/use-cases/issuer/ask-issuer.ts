/**
 * The issuer queue's reader: for one message, runs the verification's checks and, when they
 * need the issuer, takes the lookup attempt, asks, records the answer and decides on it (or sends
 * the retry back to the queue). When the checks fail (a dependency throttled or down), the
 * message is sent again with a short backoff, a few times, before the queue's own redelivery.
 */
import { FAILURE_RETRIES, failureRetryDelaySeconds, type IssuerMessage } from "../../domain/issuer.ts";
import type { VerificationItem } from "../../domain/verification.ts";
import type { Authority } from "../../ports/authority.ts";
import { type ProcessDeps, processVerification } from "../processing/process-verification.ts";
import { type AskDeps, askedAnswer } from "./answers.ts";

export async function askIssuer(
  deps: ProcessDeps & Omit<AskDeps, "queue" | "authority"> & { authority: Authority | undefined },
  message: IssuerMessage,
): Promise<VerificationItem | undefined> {
  const { issuer, authority } = deps;
  // With no issuer configured (any more), processing sends the verification to review.
  if (!issuer || !authority) return processVerification({ ...deps, issuer: undefined }, message.verification_id);
  const asker = askedAnswer({ ...deps, queue: issuer, authority }, message.attempt);
  try {
    return await processVerification(deps, message.verification_id, asker);
  } catch (error) {
    const failures = message.failures ?? 0;
    if (failures >= FAILURE_RETRIES) throw error;
    // Not before the attempt this reader took lapses, when it could not let go of it.
    const held = asker.heldUntil();
    const lapses = held ? Math.ceil((Date.parse(held) - deps.clock.now().getTime()) / 1000) : 0;
    const delaySeconds = Math.max(failureRetryDelaySeconds(failures), lapses);
    await issuer.send({ ...message, failures: failures + 1 }, delaySeconds);
    deps.log.error("the checks failed; they run again shortly", {
      error,
      verification_id: message.verification_id,
      attempt: message.attempt,
      failures: failures + 1,
    });
    return undefined;
  }
}
