/**
 * The scheduled tick (every minute): primary adapter (schedule event) -> use cases
 * `expireOverdue`, `closeOverdueReviews` and `deliverDue` -> DynamoDB and webhook destinations.
 */
import { closeOverdueReviews } from "#shared/use-cases/tick/close-overdue-reviews";
import { expireOverdue } from "#shared/use-cases/tick/expire-overdue";
import { deliverDue } from "#shared/use-cases/webhooks/delivery";
import { clock, functionConfig } from "#shared/wiring/config";
import { verificationStore } from "#shared/wiring/stores/verifications";
import { webhooks } from "#shared/wiring/webhooks";

const config = functionConfig("tick");
const expiry = { verifications: verificationStore(config), clock };
const delivery = webhooks(config);

export const handler = async (): Promise<{ expired: number; reviewsClosed: number; attempted: number }> => ({
  expired: await expireOverdue(expiry),
  reviewsClosed: await closeOverdueReviews(expiry),
  attempted: await deliverDue(delivery),
});
