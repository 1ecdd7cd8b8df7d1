/**
 * The local queues through the SDK's own SQS client and the functions' adapters: a message sent
 * is handed to the attached reader as Lambda hands an SQS batch, with the body as sent; a delay
 * holds it back; the issuer queue's reader runs at most its concurrency at once; what waits
 * outlasts a restart; a queue URL that is not a queue's is refused as SQS refuses it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import type { SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqsDeliveryQueue } from "#shared/adapters/sqs-delivery-queue";
import { sqsIssuerQueue } from "#shared/adapters/sqs-issuer-queue";
import { DELIVERY_QUEUE, ISSUER_QUEUE } from "#shared/declarations/queues";
import { LOCAL_REGION, newLocalCredentials } from "../../local/engines.ts";
import { type LocalQueues, startQueues } from "../../local/sqs.ts";

/** A random access key to sign with, as the runtime's clients sign (this service checks no signature). */
const CREDENTIALS = newLocalCredentials();

let queues: LocalQueues;
let client: SQSClient;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "queues-"));

const sqs = (url: string) => new SQSClient({ endpoint: url, region: LOCAL_REGION, credentials: CREDENTIALS });

beforeAll(async () => {
  queues = await startQueues({ port: 0, issuerConcurrency: 3 });
  client = sqs(queues.url);
});
afterAll(async () => {
  client.destroy();
  await queues.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the local delivery queue", () => {
  it("hands what the adapter sends to its reader as SQS batches, at most the declared batch size each", async () => {
    const batches: SQSEvent[] = [];
    const queue = queues.queue("Deliveries");
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
    await queue.detach();
  });

  it("refuses a queue URL that is not its own", async () => {
    await expect(
      client.send(
        new SendMessageCommand({ QueueUrl: `${queues.queue("Deliveries").queueUrl}-other`, MessageBody: "{}" }),
      ),
    ).rejects.toMatchObject({ name: "QueueDoesNotExist" });
  });
});

describe("the local issuer queue", () => {
  it("hands over one message at a time, at most its concurrency at once, each delayed message not before its delay", async () => {
    const queue = queues.queue("IssuerLookups");
    const sending = sqsIssuerQueue(client, queue.queueUrl);
    const sentAt = Date.now();
    let running = 0;
    let most = 0;
    const handed: { attempt: number; after: number; size: number }[] = [];
    queue.attach(async (event) => {
      running += 1;
      most = Math.max(most, running);
      const body = JSON.parse(event.Records[0]?.body ?? "{}") as { attempt: number };
      handed.push({ attempt: body.attempt, after: Date.now() - sentAt, size: event.Records.length });
      await new Promise((resolve) => setTimeout(resolve, 50));
      running -= 1;
    });
    await sending.send({ verification_id: "ver_delayed", attempt: 2 }, 1);
    for (let i = 0; i < 12; i += 1) await sending.send({ verification_id: `ver_${i}`, attempt: 1 }, 0);
    await queue.drain();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await queue.drain();

    expect(handed).toHaveLength(13);
    expect(handed.every((batch) => batch.size === ISSUER_QUEUE.batchSize)).toBe(true);
    expect(most).toBe(3);
    expect(handed.find((batch) => batch.attempt === 2)?.after).toBeGreaterThanOrEqual(1_000);
    await queue.detach();
  });

  it("refuses a delay SQS would refuse", async () => {
    const url = queues.queue("IssuerLookups").queueUrl;
    await expect(
      client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "{}", DelaySeconds: 901 })),
    ).rejects.toMatchObject({ name: "InvalidParameterValue" });
  });
});

describe("with a data file", () => {
  it("keeps the messages still waiting across a restart, their delays included", async () => {
    const dataFile = path.join(dataDir, "queues.json");
    const first = await startQueues({ port: 0, dataFile });
    const firstClient = sqs(first.url);
    await sqsIssuerQueue(firstClient, first.queue("IssuerLookups").queueUrl).send(
      { verification_id: "ver_later", attempt: 3 },
      1,
    );
    firstClient.destroy();
    await first.stop();

    const second = await startQueues({ port: 0, dataFile });
    const bodies: string[] = [];
    second.queue("IssuerLookups").attach(async (event) => {
      bodies.push(...event.Records.map((record) => record.body));
    });
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await second.queue("IssuerLookups").drain();
    await second.queue("IssuerLookups").detach();
    await second.stop();

    expect(bodies.map((body) => JSON.parse(body))).toEqual([{ verification_id: "ver_later", attempt: 3 }]);
  });

  it("offers a message the stopped run had handed out again at once, not after its visibility timeout", async () => {
    const dataFile = path.join(dataDir, "queues-in-flight.json");
    const first = await startQueues({ port: 0, dataFile });
    const firstClient = sqs(first.url);
    let taken!: () => void;
    const handedOut = new Promise<void>((resolve) => {
      taken = resolve;
    });
    // The reader takes the message and never ends, as one killed mid-lookup would not.
    first.queue("IssuerLookups").attach(() => {
      taken();
      return new Promise<void>(() => {});
    });
    await sqsIssuerQueue(firstClient, first.queue("IssuerLookups").queueUrl).send(
      { verification_id: "ver_in_flight", attempt: 1 },
      0,
    );
    await handedOut;
    firstClient.destroy();
    await first.stop();

    const second = await startQueues({ port: 0, dataFile });
    const bodies: string[] = [];
    const receiveCounts: string[] = [];
    second.queue("IssuerLookups").attach(async (event) => {
      bodies.push(...event.Records.map((record) => record.body));
      receiveCounts.push(...event.Records.map((record) => record.attributes.ApproximateReceiveCount));
    });
    await second.queue("IssuerLookups").drain();
    await second.queue("IssuerLookups").detach();
    await second.stop();

    expect(bodies.map((body) => JSON.parse(body))).toEqual([{ verification_id: "ver_in_flight", attempt: 1 }]);
    expect(receiveCounts).toEqual(["2"]);
  });
});
