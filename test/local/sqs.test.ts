/**
 * The local delivery queue through the SDK's own SQS client and the functions' adapter: a
 * message sent is handed to the attached reader as Lambda hands an SQS batch, with the body
 * as sent, and a queue URL that is not the queue's is refused as SQS refuses it.
 */
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqsDeliveryQueue } from "#shared/adapters/sqs-delivery-queue";
import { DELIVERY_QUEUE } from "#shared/declarations/queues";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../local/engines.ts";
import { type LocalQueue, startQueue } from "../../local/sqs.ts";

let queue: LocalQueue;
let client: SQSClient;
const batches: SQSEvent[] = [];

beforeAll(async () => {
  queue = await startQueue({ port: 0 });
  client = new SQSClient({
    endpoint: new URL(queue.queueUrl).origin,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
});
afterAll(async () => {
  client.destroy();
  await queue.stop();
});

describe("the local delivery queue", () => {
  it("hands what the adapter sends to its reader as SQS batches, at most the declared batch size each", async () => {
    const messages = Array.from({ length: 25 }, (_, i) => ({ event_id: `evt_${i}`, app_id: "app_1" }));
    const sending = sqsDeliveryQueue(client, queue.queueUrl);
    // Sent before the reader attaches, as a backlog that waits for a cold reader.
    for (const message of messages) await sending.send(message);
    queue.attach(async (event) => {
      batches.push(event);
    });
    await queue.drain();

    expect(batches.every((batch) => batch.Records.length <= DELIVERY_QUEUE.batchSize)).toBe(true);
    const records = batches.flatMap((batch) => batch.Records);
    expect(records.map((record) => JSON.parse(record.body))).toEqual(messages);
    expect(records[0]).toMatchObject({ eventSource: "aws:sqs", attributes: { ApproximateReceiveCount: "1" } });
    expect(queue.failed()).toEqual([]);
  });

  it("refuses a queue URL that is not its own", async () => {
    await expect(
      client.send(new SendMessageCommand({ QueueUrl: `${queue.queueUrl}-other`, MessageBody: "{}" })),
    ).rejects.toMatchObject({ name: "QueueDoesNotExist" });
  });
});
