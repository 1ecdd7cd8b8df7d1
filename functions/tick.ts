/**
 * The scheduled tick (every minute): primary adapter (schedule event) -> use cases
 * `expireOverdue` and `deliverDue` -> DynamoDB and webhook destinations.
 */
import { documentClient } from "#shared/clients";
import { readConfig } from "#shared/config";
import { webhookDeps } from "#shared/pipeline";
import { FUNCTIONS } from "#shared/routes";
import { expireOverdue } from "#shared/use-cases/expire";
import { deliverDue } from "#shared/use-cases/webhooks";
import { VerificationStore } from "#shared/verification-store";

const config = readConfig(FUNCTIONS.tick.settings);
const verifications = new VerificationStore(documentClient(), config.VERIFICATIONS_TABLE);
const deps = webhookDeps(config);

export const handler = async (): Promise<{ expired: number; attempted: number }> => {
  const now = new Date();
  return { expired: await expireOverdue(verifications, now), attempted: await deliverDue(deps, now) };
};
