/**
 * The local pipeline (`local/pipeline.ts`: the change-stream poller, the delivery and issuer
 * queues) around the real handlers, with a share of invocations of the stream's consumer and of
 * the delivery queue's reader crashing half way through their batch: the real handler gets the
 * first half of the batch (at least one record), and then the invocation dies as a process that
 * is killed does, reporting nothing. The stream hands the whole batch over again from its
 * position; the queue offers the batch again after its visibility timeout (the events stay due
 * in the events table, so the tick makes those attempts). Which invocations crash is drawn from a
 * seeded generator; the first invocation of each always does.
 *
 * It also notes each distinct stream record that moved a verification into a terminal state, as
 * the consumer saw it, so a test can tell a verification decided twice.
 */
import type { DynamoDBStreamEvent, SQSEvent } from "aws-lambda";
import { type Status, TERMINAL_STATUSES } from "#shared/domain/state";
import { LOCAL_REGION } from "../../local/engines.ts";
import { type Pipeline, startPipeline } from "../../local/pipeline.ts";
import { seededRandom } from "../../scripts/seeded-random.ts";
import type { TestApi } from "./api.ts";

export interface CrashCounts {
  /** Invocations of the stream's consumer, and how many crashed half way. */
  consumerInvocations: number;
  consumerCrashes: number;
  /** Invocations of the delivery queue's reader, and how many crashed half way. */
  readerInvocations: number;
  readerCrashes: number;
  /** Stream records the consumer was handed again after a crash or a reported failure. */
  recordsSeenAgain: number;
}

export interface CrashingPipeline {
  pipeline: Pipeline;
  counts(): CrashCounts;
  /** Every distinct stream record that moved a verification into a terminal state: the verification's id, per record. */
  terminalTransitions(): Map<string, string[]>;
  /** No more crashes from now on. */
  calm(): void;
  stop(): Promise<void>;
}

/** The error a crashed invocation ends with; the pipeline's `onError` sees it. */
export class InjectedCrash extends Error {
  constructor(where: string) {
    super(`injected crash half way through a batch of ${where}`);
    // One line where the pipeline or the queues log it: the place is known.
    this.stack = `InjectedCrash: ${this.message}`;
  }
}

type StreamStatus = { status?: { S?: string }; verification_id?: { S?: string } } | undefined;

export async function startCrashingPipeline(
  api: TestApi,
  options: { dynamoEndpoint: string; seed: number; crashRate: number; onError: (error: unknown) => void },
): Promise<CrashingPipeline> {
  const random = seededRandom(options.seed);
  const counts: CrashCounts = {
    consumerInvocations: 0,
    consumerCrashes: 0,
    readerInvocations: 0,
    readerCrashes: 0,
    recordsSeenAgain: 0,
  };
  const seen = new Set<string>();
  const transitions = new Map<string, string[]>();
  let calm = false;
  /** Whether this invocation crashes: the first of each kind does, then a seeded share. */
  const crashes = (invocation: number) => !calm && (invocation === 1 || random() < options.crashRate);
  const terminal = (status: string | undefined) => TERMINAL_STATUSES.includes(status as Status);
  /** The first half of a batch, at least one item: what the real handler gets before the crash. */
  const half = <T>(items: T[]) => items.slice(0, Math.ceil(items.length / 2));

  const consumer = api.handlers["on-verification-change"];
  const reader = api.handlers["deliver-webhooks"];

  const pipeline = await startPipeline({
    endpoint: options.dynamoEndpoint,
    region: LOCAL_REGION,
    table: api.tables.verifications,
    async consumer(event: DynamoDBStreamEvent) {
      counts.consumerInvocations += 1;
      for (const record of event.Records) {
        const id = record.dynamodb?.SequenceNumber ?? "";
        if (seen.has(id)) counts.recordsSeenAgain += 1;
        seen.add(id);
        const before = record.dynamodb?.OldImage as StreamStatus;
        const after = record.dynamodb?.NewImage as StreamStatus;
        const entered = terminal(after?.status?.S) && !terminal(before?.status?.S);
        const verificationId = after?.verification_id?.S ?? "";
        if (entered && !transitions.get(verificationId)?.includes(id)) {
          transitions.set(verificationId, [...(transitions.get(verificationId) ?? []), id]);
        }
      }
      if (!crashes(counts.consumerInvocations)) return consumer(event);
      const handled = await consumer({ Records: half(event.Records) });
      if (handled.batchItemFailures.length > 0) return handled;
      counts.consumerCrashes += 1;
      throw new InjectedCrash("change-stream records");
    },
    deliveries: {
      queue: api.queues.queue("Deliveries"),
      async reader(event: SQSEvent) {
        counts.readerInvocations += 1;
        if (!crashes(counts.readerInvocations)) return reader(event);
        await reader({ Records: half(event.Records) });
        counts.readerCrashes += 1;
        throw new InjectedCrash("delivery messages");
      },
    },
    lookups: { queue: api.queues.queue("IssuerLookups"), reader: api.handlers["ask-issuer"] },
    // The test runs the tick itself, under its own clock.
    tick: async () => undefined,
    pollMs: 50,
    tickMs: 3_600_000,
    onError: options.onError,
  });

  return {
    pipeline,
    counts: () => ({ ...counts }),
    terminalTransitions: () => new Map(transitions),
    calm() {
      calm = true;
    },
    stop: () => pipeline.stop(),
  };
}
