/**
 * Reader of the delivery queue: primary adapter (SQS messages) -> use case `deliverQueued`
 * (the first attempt of each new event) -> the events and apps tables, the sealing key, the
 * customer's endpoint. A batch's messages are attempted side by side, each within the
 * delivery timeout, so one slow endpoint costs only its own event. A message is done once its
 * attempt is made or cannot be: the event stays due in the events table, and the tick makes
 * the attempt when its lease passes, on the same schedule as every retry.
 */
import type { SQSEvent } from "aws-lambda";
import { DELIVER_WEBHOOKS_FUNCTION } from "#shared/declarations/functions/deliver-webhooks";
import { deliveryMessageOf } from "#shared/domain/webhook-events";
import { deliverQueued } from "#shared/use-cases/webhooks/delivery";
import { functionConfig } from "#shared/wiring/config";
import { webhooks } from "#shared/wiring/webhooks";

const config = functionConfig(DELIVER_WEBHOOKS_FUNCTION);
const deps = webhooks(config);

export const handler = async (event: SQSEvent): Promise<void> => {
  await Promise.all(
    event.Records.map(async (record) => {
      const message = deliveryMessageOf(record.body);
      if (!message) {
        deps.log.error("delivery message unreadable", { message_id: record.messageId });
        return;
      }
      await deliverQueued(deps, message).catch((error: unknown) =>
        deps.log.error("queued webhook attempt failed; the tick makes it", { error, event_id: message.event_id }),
      );
    }),
  );
};
