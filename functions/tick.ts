/**
 * The scheduled tick (every minute): primary adapter (schedule event) -> use cases
 * `expireOverdue`, `closeOverdueReviews`, `sweepErasedUploads` and `deliverDue` -> DynamoDB,
 * webhook destinations and the uploads bucket.
 */
import { closeOverdueReviews } from "#shared/use-cases/tick/close-overdue-reviews";
import { expireOverdue } from "#shared/use-cases/tick/expire-overdue";
import { sweepErasedUploads } from "#shared/use-cases/tick/sweep-erased-uploads";
import { deliverDue } from "#shared/use-cases/webhooks/delivery";
import { clock, functionConfig } from "#shared/wiring/config";
import { log } from "#shared/wiring/log";
import { documentStore } from "#shared/wiring/stores/documents";
import { verificationStore } from "#shared/wiring/stores/verifications";
import { webhooks } from "#shared/wiring/webhooks";

const config = functionConfig("tick");
const expiry = { verifications: verificationStore(config), clock };
const delivery = webhooks(config);
const sweep = { ...expiry, documents: documentStore(config), log };

export const handler = async (): Promise<{
  expired: number;
  reviewsClosed: number;
  uploadsAfterErasure: number;
  attempted: number;
}> => ({
  expired: await expireOverdue(expiry),
  reviewsClosed: await closeOverdueReviews(expiry),
  // Before the deliveries, which wait on customers' endpoints.
  uploadsAfterErasure: await sweepErasedUploads(sweep),
  attempted: await deliverDue(delivery),
});
