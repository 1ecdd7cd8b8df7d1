/**
 * The scheduled tick (every minute): primary adapter (schedule event) -> use cases
 * `expireOverdue`, `closeOverdueReviews`, `sweepErasedUploads` and `deliverDue` -> DynamoDB,
 * webhook destinations and the uploads bucket. Every 15 minutes a second schedule sends it
 * `{"canary": true}`: then it runs only the e-Devlet canary (`runCanary`) -> e-Devlet's web form.
 */

import { TICK_FUNCTION } from "#shared/declarations/functions/tick";
import { runCanary } from "#shared/use-cases/issuer/canary";
import { closeOverdueReviews } from "#shared/use-cases/tick/close-overdue-reviews";
import { expireOverdue } from "#shared/use-cases/tick/expire-overdue";
import { sweepErasedUploads } from "#shared/use-cases/tick/sweep-erased-uploads";
import { deliverDue } from "#shared/use-cases/webhooks/delivery";
import { canaryAuthority } from "#shared/wiring/authority";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { documentStore } from "#shared/wiring/stores/documents";
import { verificationStore } from "#shared/wiring/stores/verifications";
import { webhooks } from "#shared/wiring/webhooks";

const config = functionConfig(TICK_FUNCTION);
const expiry = { verifications: verificationStore(config), clock };
const delivery = webhooks(config);
const sweep = { ...expiry, documents: documentStore(config), log };
const canary = canaryAuthority(config);

/** What the schedule sends: nothing for the tick, `{"canary": true}` for the canary. */
export interface TickEvent {
  canary?: boolean;
}

export const handler = async (
  event?: TickEvent,
): Promise<
  | { expired: number; reviewsClosed: number; uploadsAfterErasure: number; attempted: number }
  | { canary: "passed" | "failed" | "no issuer" }
> => {
  if (event?.canary === true) {
    return {
      canary: canary ? await runCanary({ authority: canary, log, environment: config.environment() }) : "no issuer",
    };
  }
  return {
    expired: await expireOverdue(expiry),
    reviewsClosed: await closeOverdueReviews(expiry),
    // Before the deliveries, which wait on customers' endpoints.
    uploadsAfterErasure: await sweepErasedUploads(sweep),
    attempted: await deliverDue(delivery),
  };
};
