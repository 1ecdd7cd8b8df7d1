import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { IssuerQueue } from "../ports/issuer-queue.ts";

/** SQS delays a message at most this long. */
const MAX_DELAY_SECONDS = 900;

/** The issuer queue as an SQS queue: one message per lookup, its body the message as JSON, its wait SQS's delay. */
export function sqsIssuerQueue(client: SQSClient, queueUrl: string): IssuerQueue {
  return {
    async send(message, delaySeconds) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(message),
          DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))),
        }),
      );
    },
  };
}
