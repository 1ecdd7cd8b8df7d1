import { logger } from "../logger.ts";
import type { VerificationItem } from "../verification.ts";
import { type ProcessDeps, processVerification } from "./process-verification.ts";
import { attemptDelivery, recordEvent, type WebhookDeps } from "./webhooks.ts";

/**
 * What follows a change of a verification, read from the table's change stream: its event,
 * delivered, and for `processing` the checks that take it to a terminal state. A change seen
 * twice does nothing twice: the event is keyed by (verification, sequence) and processing
 * only moves a verification that is still processing.
 */
export async function onVerificationChange(
  deps: ProcessDeps & WebhookDeps,
  change: { before: VerificationItem | undefined; after: VerificationItem | undefined },
  now: () => Date,
): Promise<void> {
  const { before, after } = change;
  if (!after || after.status === before?.status) return;
  // The checks first, so a slow webhook destination never delays a result; the next change
  // (completed or failed) arrives as a later record, so its event still follows this one.
  if (after.status === "processing") await processVerification(deps, after.verification_id);
  const event = await recordEvent(deps, after, now());
  if (!event) return;
  // The event is recorded: if this first attempt cannot even be made, the tick makes it once
  // the lease passes, and the stream moves on rather than retrying a change that is done.
  await attemptDelivery(deps, event, now()).catch((error: unknown) =>
    logger.error("first webhook attempt failed", { error: error as Error, event_id: event.event_id }),
  );
}
