/**
 * What Lambda's event-source mappings and EventBridge do in AWS, on one machine: a poller of
 * the verifications table's change stream that calls the consumer with the same event shape
 * and filter, the delivery and issuer queues handed to their readers, and a timer that calls
 * the tick.
 */
import { existsSync, readFileSync } from "node:fs";
import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { CHANGE_STREAM_READING, matchesFilter } from "#shared/declarations/stream-filter";
import { fnv1a } from "#shared/domain/shards";
import { writeDataFile } from "./data-file.ts";
import type { LocalQueue, QueueReader } from "./sqs.ts";

export interface PipelineOptions {
  endpoint: string;
  region: string;
  table: string;
  consumer: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  tick: () => Promise<unknown>;
  /** What the deployed stack's other schedules run (the e-Devlet canary, the audit sealer), each as often. */
  schedules?: readonly { run: () => Promise<unknown>; everyMs: number }[];
  /** The delivery queue the consumer sends new events to, and the function that reads it. */
  deliveries: { queue: LocalQueue; reader: QueueReader };
  /** The issuer queue processing sends lookups to, and the function that asks. */
  lookups: { queue: LocalQueue; reader: QueueReader };
  /** Where the last handled sequence number per shard is kept across restarts; none in memory. */
  checkpointFile?: string;
  pollMs?: number;
  tickMs?: number;
  onError?: (error: unknown) => void;
}

export interface Pipeline {
  /**
   * Resolves once every record written so far has been handed to the consumer, every lookup due
   * so far has been asked (and its decision's records handled), and every event to its reader.
   */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

function toLambdaRecord(record: _Record, streamArn: string, region: string): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord["eventName"],
    eventVersion: record.eventVersion,
    eventSource: "aws:dynamodb",
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: change.ApproximateCreationDateTime
        ? Math.floor(change.ApproximateCreationDateTime.getTime() / 1000)
        : undefined,
      Keys: change.Keys as NonNullable<DynamoDBRecord["dynamodb"]>["Keys"],
      NewImage: change.NewImage as NonNullable<DynamoDBRecord["dynamodb"]>["NewImage"],
      OldImage: change.OldImage as NonNullable<DynamoDBRecord["dynamodb"]>["OldImage"],
      SequenceNumber: change.SequenceNumber,
      SizeBytes: change.SizeBytes,
      StreamViewType: change.StreamViewType,
    },
  };
}

/**
 * Hands `records` to the consumer as the event-source mapping does with `CHANGE_STREAM_READING`:
 * each item's records in one of `parallelizationFactor` lanes, in order, a lane's batches of
 * `batchSize` one after another, the lanes side by side. A lane stops at its first failed record.
 * Returns the earliest record any lane failed at (its position in `records`), or none.
 */
export async function consume(
  records: DynamoDBRecord[],
  consumer: PipelineOptions["consumer"],
): Promise<number | undefined> {
  const { batchSize, parallelizationFactor } = CHANGE_STREAM_READING;
  const lanes = new Map<number, DynamoDBRecord[]>();
  for (const record of records) {
    const lane = fnv1a(JSON.stringify(record.dynamodb?.Keys)) % parallelizationFactor;
    const queued = lanes.get(lane);
    if (queued) queued.push(record);
    else lanes.set(lane, [record]);
  }
  const failures = await Promise.all(
    [...lanes.values()].map(async (lane) => {
      for (let from = 0; from < lane.length; from += batchSize) {
        const { batchItemFailures } = await consumer({ Records: lane.slice(from, from + batchSize) });
        const failed = batchItemFailures[0]?.itemIdentifier;
        if (failed) return records.findIndex((record) => record.dynamodb?.SequenceNumber === failed);
      }
      return undefined;
    }),
  );
  const positions = failures.filter((position): position is number => position !== undefined && position >= 0);
  return positions.length > 0 ? Math.min(...positions) : undefined;
}

/** What a pass over the stream reads and keeps: the shards' iterators and the last sequence number handled in each. */
interface StreamReading {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  options: PipelineOptions;
  checkpoints: Record<string, string>;
  iterators: Map<string, string | undefined>;
}

/** The table's stream, which the table must have. */
async function streamArnOf(dynamo: DynamoDBClient, table: string): Promise<string> {
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: table }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${table} has no stream`);
  return streamArn;
}

/** The last sequence number handled per shard, as the previous run left them; none in memory. */
function readCheckpoints(file: string | undefined): Record<string, string> {
  return file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
}

/** An iterator from just after the shard's checkpoint, or from its oldest record. */
async function iteratorFor(reading: StreamReading, shardId: string): Promise<string | undefined> {
  const after = reading.checkpoints[shardId];
  const { ShardIterator } = await reading.streams.send(
    new GetShardIteratorCommand({
      StreamArn: reading.streamArn,
      ShardId: shardId,
      ShardIteratorType: after ? "AFTER_SEQUENCE_NUMBER" : "TRIM_HORIZON",
      SequenceNumber: after,
    }),
  );
  return ShardIterator;
}

/** The shard's next page of records; none when its iterator went stale (a new one is taken next pass). */
async function nextPage(
  reading: StreamReading,
  shardId: string,
  iterator: string,
): Promise<{ Records?: _Record[]; NextShardIterator?: string } | undefined> {
  try {
    return await reading.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
  } catch (error) {
    // An iterator can go stale (expired, or taken before the shard had records): take a new one.
    if (error instanceof Error && ["TrimmedDataAccessException", "ExpiredIteratorException"].includes(error.name)) {
      reading.iterators.delete(shardId);
      return undefined;
    }
    throw error;
  }
}

/** One page of a shard handed to the consumer; true when it had records. */
async function readShard(reading: StreamReading, shardId: string): Promise<boolean> {
  const { checkpoints, iterators, options } = reading;
  if (!iterators.has(shardId)) iterators.set(shardId, await iteratorFor(reading, shardId));
  const iterator = iterators.get(shardId);
  const page = iterator ? await nextPage(reading, shardId, iterator) : undefined;
  if (!page) return false;
  const { Records = [], NextShardIterator } = page;
  const records = Records.map((record) => toLambdaRecord(record, reading.streamArn, options.region));
  const matching = records.filter((record) => matchesFilter(record));
  const failedAt = await consume(matching, options.consumer);
  if (failedAt !== undefined) {
    // As Lambda does: retry from the earliest failed record on the next pass.
    const handled = records.indexOf(matching[failedAt] as DynamoDBRecord);
    const before = records[handled - 1]?.dynamodb?.SequenceNumber;
    if (before) checkpoints[shardId] = before;
    iterators.set(shardId, await iteratorFor(reading, shardId));
  } else {
    const last = records.at(-1)?.dynamodb?.SequenceNumber;
    if (last) checkpoints[shardId] = last;
    iterators.set(shardId, NextShardIterator);
  }
  if (records.length === 0) return false;
  if (options.checkpointFile) writeDataFile(options.checkpointFile, JSON.stringify(checkpoints));
  return true;
}

/** One pass over every open shard; true when a shard had records. */
async function pass(reading: StreamReading): Promise<boolean> {
  const { StreamDescription } = await reading.streams.send(new DescribeStreamCommand({ StreamArn: reading.streamArn }));
  let busy = false;
  for (const shard of StreamDescription?.Shards ?? []) {
    if (await readShard(reading, shard.ShardId as string)) busy = true;
  }
  return busy;
}

/**
 * Passes over the stream until stopped, a pause after each pass that found nothing. `idle()`
 * resolves at the next such pass to begin after the call: everything written before is handled.
 */
function pollStream(reading: StreamReading) {
  const { options } = reading;
  let stopped = false;
  let passNumber = 0;
  let idleWaiters: { after: number; resolve: () => void }[] = [];
  const poller = (async () => {
    while (!stopped) {
      const current = ++passNumber;
      let busy = false;
      try {
        busy = await pass(reading);
      } catch (error) {
        options.onError?.(error);
      }
      if (!busy) {
        for (const waiter of idleWaiters.filter((w) => w.after < current)) waiter.resolve();
        idleWaiters = idleWaiters.filter((w) => w.after >= current);
        await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
      }
    }
  })();
  return {
    idle: () => new Promise<void>((resolve) => idleWaiters.push({ after: passNumber, resolve })),
    async stop() {
      stopped = true;
      for (const waiter of idleWaiters) waiter.resolve();
      await poller;
    },
  };
}

/** The tick and the other schedules on their timers; returns what clears them. */
function startSchedules(options: PipelineOptions): () => void {
  const ticker = setInterval(() => {
    options.tick().catch((error: unknown) => options.onError?.(error));
  }, options.tickMs ?? 10_000);
  const timers = (options.schedules ?? []).map(({ run, everyMs }) =>
    setInterval(() => {
      run().catch((error: unknown) => options.onError?.(error));
    }, everyMs),
  );
  return () => {
    clearInterval(ticker);
    for (const timer of timers) clearInterval(timer);
  };
}

export async function startPipeline(options: PipelineOptions): Promise<Pipeline> {
  const clientConfig = { endpoint: options.endpoint, region: options.region };
  const dynamo = new DynamoDBClient(clientConfig);
  const streams = new DynamoDBStreamsClient(clientConfig);
  const streamArn = await streamArnOf(dynamo, options.table);
  const checkpoints = readCheckpoints(options.checkpointFile);
  const stream = pollStream({ streams, streamArn, options, checkpoints, iterators: new Map() });
  options.deliveries.queue.attach(options.deliveries.reader);
  options.lookups.queue.attach(options.lookups.reader);
  const stopSchedules = startSchedules(options);

  return {
    // A lookup's answer writes a decision, whose record the stream hands on: round after round,
    // until one round finds nothing new to ask.
    async drain() {
      for (;;) {
        const asked = options.lookups.queue.handled();
        await stream.idle();
        await options.lookups.queue.drain();
        if (options.lookups.queue.handled() === asked) break;
      }
      await options.deliveries.queue.drain();
    },
    async stop() {
      stopSchedules();
      await stream.stop();
      // Lookups and deliveries already handed out finish before the engines they write to stop.
      await options.lookups.queue.detach();
      await options.deliveries.queue.detach();
      dynamo.destroy();
      streams.destroy();
    },
  };
}
