/**
 * The scheduled tick (every minute): primary adapter (schedule event) -> use cases
 * `expireOverdue` and `deliverDue` -> DynamoDB and webhook destinations.
 */
import { expireOverdue } from "#shared/use-cases/expire-overdue";
import { deliverDue } from "#shared/use-cases/webhook-delivery";
import { wire } from "#shared/wiring";

const wired = wire("tick");
const expiry = { verifications: wired.verifications(), clock: wired.clock };
const webhooks = wired.webhooks();

export const handler = async (): Promise<{ expired: number; attempted: number }> => ({
  expired: await expireOverdue(expiry),
  attempted: await deliverDue(webhooks),
});
