import { usageOutcome } from "../../domain/usage.ts";
import { erasedResource, type VerificationItem } from "../../domain/verification.ts";
import type { EventItem } from "../../domain/webhook-events.ts";
import type { DeliveryQueue } from "../../ports/delivery-queue.ts";
import type { EventStore } from "../../ports/event-store.ts";
import type { Log } from "../../ports/log.ts";
import type { UsageStore } from "../../ports/usage-store.ts";
import { queueChecks } from "../issuer/answers.ts";
import { settleSandboxReview } from "../review/complete.ts";
import { recordEvent } from "../webhooks/delivery.ts";
import { type ProcessDeps, processVerification } from "./process-verification.ts";

/**
 * What follows a change of a verification, read from the table's change stream: its event,
 * recorded and sent to the delivery queue, and for `processing` the checks that take it to a
 * terminal state: sent to the issuer queue, whose reader runs them and asks the issuer, or,
 * with no issuer configured, run here. No customer endpoint and no issuer is called here, so
 * none can hold up the stream. A change seen twice does nothing twice: the event is keyed by
 * (verification, sequence), the checks are queued once per verification and processing only
 * moves a verification that is still processing.
 */
export async function onVerificationChange(
  deps: ProcessDeps & {
    events: Pick<EventStore, "create" | "eventsOf" | "replaceBody">;
    queue: DeliveryQueue;
    usage: Pick<UsageStore, "count">;
    log: Log;
    sleep: (ms: number) => Promise<void>;
  },
  change: { before: VerificationItem | undefined; after: VerificationItem | undefined },
): Promise<void> {
  const { before, after } = change;
  if (!after) return;
  const erased = after.redacted_at !== undefined && before?.redacted_at === undefined;
  const moved = after.status !== before?.status;
  if (!erased && !moved) return;
  if (erased) await eraseSentEvents(deps, after);
  // Only a change of state is counted: erasing a verification counted long ago counts nothing.
  if (moved) await countUsage(deps, after);
  // The event first: it is only recorded and queued (no customer endpoint is called here), so
  // the customer hears of `processing` without waiting for the checks, and the checks' own
  // change (completed or failed) arrives as a later record, so its event follows this one.
  const event = await recordEvent(deps, after);
  if (event) await enqueueFirstAttempt(deps, event);
  if (after.status === "processing") {
    // Read once, by the reader that also asks: the document is not read twice for one decision.
    if (deps.issuer) await queueChecks({ queue: deps.issuer }, after);
    else await processVerification(deps, after.verification_id);
  }
  // After its in_review event, so the decision's event follows it.
  await settleSandboxReview(deps, after);
}

/**
 * Rewrites the bodies of the events kept about an erased verification, so neither a replay nor
 * `GET /v1/events` sends what it erased; the new `verification.redacted` event follows.
 */
async function eraseSentEvents(
  deps: { events: Pick<EventStore, "eventsOf" | "replaceBody"> },
  item: VerificationItem,
): Promise<void> {
  const redactedAt = item.redacted_at ?? item.updated_at;
  for (const event of await deps.events.eventsOf(item.verification_id)) {
    // Read loosely: a body recorded before a field was added must still be erased, not refused.
    const body = JSON.parse(event.body) as { data?: { verification?: object } };
    const verification = body.data?.verification;
    if (!verification) continue;
    const erased = { ...body, data: { ...body.data, verification: erasedResource(verification, redactedAt) } };
    await deps.events.replaceBody(event.event_id, JSON.stringify(erased));
  }
}

/** Counts a verification that reached its final state, once, on the day it got there. */
async function countUsage(deps: { usage: Pick<UsageStore, "count"> }, item: VerificationItem): Promise<void> {
  const outcome = usageOutcome(item);
  if (!outcome) return;
  await deps.usage.count({
    appId: item.app_id,
    day: item.updated_at.slice(0, 10),
    outcome,
    verificationId: item.verification_id,
  });
}

async function enqueueFirstAttempt(deps: { queue: DeliveryQueue; log: Log }, event: EventItem): Promise<void> {
  // The event is recorded: if the queue cannot take it, the tick makes its first attempt once
  // the lease passes, and the stream moves on rather than retrying a change that is done.
  await deps.queue
    .send({ event_id: event.event_id, app_id: event.app_id })
    .catch((error: unknown) => deps.log.error("webhook event not queued", { error, event_id: event.event_id }));
}
