/**
 * The local queues (`QUEUES`: the delivery queue and the issuer queue) on one port: SQS's wire
 * protocol for SendMessage (JSON 1.0, `X-Amz-Target: AmazonSQS.SendMessage`, `DelaySeconds`
 * included), so the functions' SQS adapters and the SDK client run unchanged, and what Lambda's
 * event-source mapping does with each queue in AWS: batches of up to its `batchSize` messages
 * handed to its reader with the same event shape, up to its `maxConcurrency` batches at once, a
 * delayed message hidden until its delay ends, a batch whose reader failed offered again after
 * the visibility timeout, and a message taken `maxReceiveCount` times set aside as the failure
 * queue would keep it. With a data file the messages outlast a restart, as SQS's do.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { SQSEvent, SQSRecord } from "aws-lambda";
import { ISSUER_QUEUE, QUEUES, type QueueDefinition } from "#shared/declarations/queues";
import { writeDataFile } from "./data-file.ts";
import { LOCAL_REGION, serveOnLoopback } from "./engines.ts";
import { jsonRequestBody } from "./json-body.ts";

const ACCOUNT = "000000000000";
const MAX_BODY_BYTES = 256 * 1024;
/** SQS's longest delay. */
const MAX_DELAY_SECONDS = 900;

export type QueueReader = (event: SQSEvent) => Promise<void>;
export type QueueId = QueueDefinition["id"];

interface Message {
  id: string;
  body: string;
  sentAt: number;
  receiveCount: number;
  /** When it may be taken (again): its delay's end, or its visibility timeout's after a take. */
  visibleAt: number;
  /** Handed to a reader that has not ended yet. */
  inFlight?: boolean;
}

class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export interface LocalQueue {
  /** The queue's URL, as the stack's queue URL names a deployed one. */
  queueUrl: string;
  /** Starts handing messages to `reader` (the queue's function), as the event-source mapping does. */
  attach(reader: QueueReader): void;
  /** Stops handing messages out, and resolves once the batches already handed out have ended. */
  detach(): Promise<void>;
  /** Resolves once every message due so far (its delay over) has been handled or set aside. */
  drain(): Promise<void>;
  /** Messages handed to the reader and finished so far: a drain that saw this number unchanged saw nothing happen. */
  handled(): number;
  /** Messages set aside after `maxReceiveCount` takes: what the failure queue would hold. */
  failed(): string[];
}

export interface LocalQueues {
  url: string;
  queue(id: QueueId): LocalQueue;
  stop(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  return (await jsonRequestBody(request, MAX_BODY_BYTES, (reason) =>
    reason === "too_large"
      ? new SqsError("InvalidParameterValue", "Request body too large")
      : new SqsError("InvalidParameterValue", "Request body is not JSON"),
  )) as Record<string, unknown>;
}

function record(message: Message, queueArn: string): SQSRecord {
  return {
    messageId: message.id,
    receiptHandle: `${message.id}#${message.receiveCount}`,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: ACCOUNT,
      ApproximateFirstReceiveTimestamp: String(message.sentAt),
    },
    messageAttributes: {},
    md5OfBody: createHash("md5").update(message.body).digest("hex"),
    eventSource: "aws:sqs",
    eventSourceARN: queueArn,
    awsRegion: LOCAL_REGION,
  };
}

function delayOf(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_DELAY_SECONDS) {
    throw new SqsError("InvalidParameterValue", `DelaySeconds must be a whole number from 0 to ${MAX_DELAY_SECONDS}`);
  }
  return value;
}

/** One queue read as `definition` declares, `maxConcurrency` batches at once. */
class QueueReading {
  private readonly queueArn: string;
  private readonly setAside: string[] = [];
  private reader: QueueReader | undefined;
  private running = 0;
  private finished = 0;
  private stopped = false;
  private waiters: (() => void)[] = [];
  private idle: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The queue as its reader and the pipeline see it. */
  readonly queue: LocalQueue;

  constructor(
    private readonly definition: QueueDefinition,
    private readonly maxConcurrency: number,
    queueUrl: string,
    private readonly messages: Message[],
    private readonly changed: () => void,
    private readonly onError: ((error: unknown) => void) | undefined,
  ) {
    this.queueArn = `arn:aws:sqs:${LOCAL_REGION}:${ACCOUNT}:${queueUrl.split("/").at(-1)}`;
    this.queue = {
      queueUrl,
      attach: (read) => {
        this.reader = read;
        this.pump();
      },
      detach: () => {
        this.reader = undefined;
        return new Promise((resolve) => {
          if (this.running === 0) resolve();
          else this.idle.push(resolve);
        });
      },
      drain: () =>
        new Promise((resolve) => {
          if (this.settled() || !this.reader) resolve();
          else this.waiters.push(resolve);
        }),
      handled: () => this.finished,
      failed: () => [...this.setAside],
    };
  }

  /** Nothing handed out, and nothing visible to hand out. */
  private settled(): boolean {
    return this.running === 0 && this.messages.every((message) => message.visibleAt > Date.now());
  }

  private wake(): void {
    if (!this.settled()) return;
    for (const resolve of this.waiters) resolve();
    this.waiters = [];
  }

  /** Hands visible messages to the reader, a batch at a time, up to the concurrency. */
  private pump(): void {
    const { reader, messages, definition } = this;
    if (!reader || this.stopped) return;
    const now = Date.now();
    while (this.running < this.maxConcurrency) {
      const batch = messages.filter((message) => message.visibleAt <= now).slice(0, definition.batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        message.receiveCount += 1;
        message.visibleAt = now + definition.visibilityTimeoutSeconds * 1000;
        message.inFlight = true;
      }
      this.running += 1;
      this.changed();
      void this.handle(reader, batch);
    }
    // Come back when the next hidden message shows: a delay ending, or a visibility timeout.
    const next = Math.min(...messages.map((message) => message.visibleAt));
    if (this.timer) clearTimeout(this.timer);
    if (Number.isFinite(next) && next > now) this.timer = setTimeout(() => this.pump(), next - now).unref();
  }

  /** One batch read; its messages gone, or (the read failed) offered again later or set aside. */
  private async handle(read: QueueReader, batch: Message[]): Promise<void> {
    let failed = false;
    try {
      await read({ Records: batch.map((message) => record(message, this.queueArn)) });
    } catch (error) {
      this.onError?.(error);
      failed = true;
    }
    for (const message of batch) this.settle(message, failed);
    this.running -= 1;
    this.finished += batch.length;
    this.changed();
    if (this.running === 0) {
      for (const resolve of this.idle) resolve();
      this.idle = [];
    }
    this.pump();
    this.wake();
  }

  /** A message its reader ended with: removed, or kept hidden until its visibility timeout, or set aside. */
  private settle(message: Message, failed: boolean): void {
    delete message.inFlight;
    const index = this.messages.indexOf(message);
    if (index < 0) return;
    // A failed batch stays hidden until its visibility timeout ends, then is offered again.
    if (!failed) this.messages.splice(index, 1);
    else if (message.receiveCount >= this.definition.maxReceiveCount) {
      this.messages.splice(index, 1);
      this.setAside.push(message.body);
    }
  }

  send(body: string, delaySeconds: number): Message {
    const now = Date.now();
    const message = { id: randomUUID(), body, sentAt: now, receiveCount: 0, visibleAt: now + delaySeconds * 1000 };
    this.messages.push(message);
    this.changed();
    this.pump();
    return message;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

/**
 * Every queue of `QUEUES` on `port`, read as each declares once a reader is attached; the issuer
 * queue's reader count is `issuerConcurrency` when given. With `dataFile`, the messages waiting
 * (delayed, visible or taken) are kept there and read again at the next start.
 */
export async function startQueues(options: {
  port: number;
  dataFile?: string;
  issuerConcurrency?: number;
  onError?: (error: unknown) => void;
}): Promise<LocalQueues> {
  const stored: Record<string, Message[]> =
    options.dataFile && existsSync(options.dataFile) ? JSON.parse(readFileSync(options.dataFile, "utf8")) : {};
  // A message the last run had handed out when it stopped (killed, say) has no reader any more:
  // in AWS it would wait out its visibility timeout in case the reader were still at work, but
  // here that reader is gone for certain, so it is offered again at once.
  for (const message of Object.values(stored).flat()) {
    if (message.inFlight) {
      delete message.inFlight;
      message.visibleAt = Date.now();
    }
  }
  const save = () => {
    if (options.dataFile) writeDataFile(options.dataFile, JSON.stringify(stored));
  };
  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/x-amz-json-1.0", ...headers });
      response.end(JSON.stringify(body));
    };
    try {
      const target = String(request.headers["x-amz-target"] ?? "");
      if (request.method !== "POST" || target !== "AmazonSQS.SendMessage") {
        throw new SqsError("UnsupportedOperation", `Unsupported operation ${target}`);
      }
      const input = await readJson(request);
      const queue = queues.find((candidate) => candidate.queue.queueUrl === input.QueueUrl);
      if (!queue) throw new SqsError("QueueDoesNotExist", "The specified queue does not exist.");
      if (typeof input.MessageBody !== "string" || input.MessageBody === "") {
        throw new SqsError("MissingParameter", "The request must contain the parameter MessageBody.");
      }
      const message = queue.send(input.MessageBody, delayOf(input.DelaySeconds));
      send(200, { MessageId: message.id, MD5OfMessageBody: createHash("md5").update(message.body).digest("hex") });
    } catch (error) {
      const known = error instanceof SqsError ? error : new SqsError("InternalError", "Internal error");
      send(
        400,
        { __type: `com.amazonaws.sqs#${known.type}`, message: known.message },
        { "x-amzn-query-error": `${known.type};Sender` },
      );
    }
  });
  const served = await serveOnLoopback(server, options.port);
  const queues = QUEUES.map((definition) => {
    const name = `local-${definition.id.toLowerCase()}`;
    stored[name] ??= [];
    const concurrency =
      definition.id === ISSUER_QUEUE.id
        ? (options.issuerConcurrency ?? definition.maxConcurrency)
        : definition.maxConcurrency;
    return new QueueReading(
      definition,
      concurrency,
      `${served.url}/${ACCOUNT}/${name}`,
      stored[name],
      save,
      options.onError,
    );
  });
  return {
    url: served.url,
    queue(id) {
      const found = queues.find((candidate) => candidate.queue.queueUrl.endsWith(`/local-${id.toLowerCase()}`));
      if (!found) throw new Error(`No queue ${id} in shared/declarations/queues.ts`);
      return found.queue;
    },
    async stop() {
      for (const queue of queues) queue.stop();
      await served.stop();
    },
  };
}
