import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { DeliveryQueue } from "../ports/delivery-queue.ts";

/** The delivery queue as an SQS queue: one message per event, its body the message as JSON. */
export function sqsDeliveryQueue(client: SQSClient, queueUrl: string): DeliveryQueue {
  return {
    async send(message) {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    },
  };
}
