/**
 * The scheduled tick (every minute): primary adapter (schedule event) -> use cases
 * `expireOverdue` and `deliverDue` -> DynamoDB and webhook destinations.
 */
import { expireOverdue } from "#shared/use-cases/expire-overdue";
import { deliverDue } from "#shared/use-cases/webhook-delivery";
import { clock, functionConfig } from "#shared/wiring/config";
import { verificationStore } from "#shared/wiring/stores";
import { webhooks } from "#shared/wiring/webhooks";

const config = functionConfig("tick");
const expiry = { verifications: verificationStore(config), clock };
const delivery = webhooks(config);

export const handler = async (): Promise<{ expired: number; attempted: number }> => ({
  expired: await expireOverdue(expiry),
  attempted: await deliverDue(delivery),
});
