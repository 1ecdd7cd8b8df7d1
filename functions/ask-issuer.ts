/**
 * Reader of the issuer queue: primary adapter (SQS messages, one at a time) -> use case
 * `askIssuer` (the checks; when they need the issuer: take the lookup, ask, record the answer,
 * decide or send the retry back) -> DynamoDB, S3, e-Devlet (or the environment's other issuer),
 * the issuer queue. At most the stage's issuer concurrency of these run at once, so no more
 * lookups are ever in flight. A message that fails is offered again after the queue's
 * visibility timeout; the lookup state on the verification makes a second reading ask nothing twice.
 */
import type { SQSEvent } from "aws-lambda";
import { ASK_ISSUER_FUNCTION } from "#shared/declarations/functions/ask-issuer";
import { issuerMessageOf } from "#shared/domain/issuer";
import { askIssuer } from "#shared/use-cases/issuer/ask-issuer";
import { issuerAuthority } from "#shared/wiring/authority";
import { functionConfig } from "#shared/wiring/config";
import { processing, retryWindowSeconds } from "#shared/wiring/processing";
import { identitySealer } from "#shared/wiring/sealer";

const config = functionConfig(ASK_ISSUER_FUNCTION);
const authority = issuerAuthority(config);
const deps = {
  ...processing(config),
  authority,
  sealer: identitySealer(config),
  retryWindowSeconds: retryWindowSeconds(config),
  random: Math.random,
  stopwatch: () => performance.now(),
};

export const handler = async (event: SQSEvent): Promise<void> => {
  for (const record of event.Records) {
    const message = issuerMessageOf(record.body);
    if (!message) {
      deps.log.error("issuer message unreadable", { message_id: record.messageId });
      continue;
    }
    await askIssuer(deps, message);
  }
};
