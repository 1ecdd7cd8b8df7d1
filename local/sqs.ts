/**
 * The local delivery queue: SQS's wire protocol for SendMessage (JSON 1.0, `X-Amz-Target:
 * AmazonSQS.SendMessage`), so the consumer's SQS adapter and SDK client run unchanged, and
 * what Lambda's event-source mapping does with the queue in AWS: batches of up to
 * `batchSize` messages handed to the reader with the same event shape, up to `maxConcurrency`
 * batches at once, a batch whose reader failed offered again after the visibility timeout, and
 * a message taken `maxReceiveCount` times set aside as the failure queue would keep it.
 * Messages live in memory: the events they name stay due in the events table for the tick.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { SQSEvent, SQSRecord } from "aws-lambda";
import { DELIVERY_QUEUE } from "#shared/declarations/queues";
import { LOCAL_REGION, serveOnLoopback } from "./engines.ts";
import { jsonRequestBody } from "./json-body.ts";

const ACCOUNT = "000000000000";
const MAX_BODY_BYTES = 256 * 1024;

export type QueueReader = (event: SQSEvent) => Promise<void>;

interface Message {
  id: string;
  body: string;
  sentAt: number;
  receiveCount: number;
  /** When it may be taken again; 0 while it waits for its first reader. */
  visibleAt: number;
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
  /** Resolves once every message sent so far has been handled or set aside. */
  drain(): Promise<void>;
  /** Messages set aside after `maxReceiveCount` takes: what the failure queue would hold. */
  failed(): string[];
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

/** The delivery queue on `port`, read as `DELIVERY_QUEUE` declares once a reader is attached. */
export async function startQueue(options: { port: number; onError?: (error: unknown) => void }): Promise<LocalQueue> {
  const settings = DELIVERY_QUEUE;
  const name = `local-${settings.id.toLowerCase()}`;
  const queueArn = `arn:aws:sqs:${LOCAL_REGION}:${ACCOUNT}:${name}`;
  const messages: Message[] = [];
  const setAside: string[] = [];
  let reader: QueueReader | undefined;
  let running = 0;
  let stopped = false;
  let waiters: (() => void)[] = [];
  let idle: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;

  const settled = () => messages.length === 0 && running === 0;
  const wake = () => {
    if (!settled()) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };

  /** Hands visible messages to the reader, a batch at a time, up to the concurrency. */
  const pump = () => {
    if (!reader || stopped) return;
    const now = Date.now();
    while (running < settings.maxConcurrency) {
      const batch = messages.filter((message) => message.visibleAt <= now).slice(0, settings.batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        message.receiveCount += 1;
        message.visibleAt = now + settings.visibilityTimeoutSeconds * 1000;
      }
      running += 1;
      void handle(reader, batch);
    }
    // Come back when the next hidden message shows again.
    const next = Math.min(...messages.map((message) => message.visibleAt));
    if (timer) clearTimeout(timer);
    if (Number.isFinite(next) && next > now) timer = setTimeout(pump, next - now).unref();
  };

  const handle = async (read: QueueReader, batch: Message[]) => {
    let failed = false;
    try {
      await read({ Records: batch.map((message) => record(message, queueArn)) });
    } catch (error) {
      options.onError?.(error);
      failed = true;
    }
    for (const message of batch) {
      const index = messages.indexOf(message);
      if (index < 0) continue;
      // A failed batch stays hidden until its visibility timeout ends, then is offered again.
      if (!failed) messages.splice(index, 1);
      else if (message.receiveCount >= settings.maxReceiveCount) {
        messages.splice(index, 1);
        setAside.push(message.body);
      }
    }
    running -= 1;
    if (running === 0) {
      for (const resolve of idle) resolve();
      idle = [];
    }
    pump();
    wake();
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
      if (input.QueueUrl !== queue.queueUrl) {
        throw new SqsError("QueueDoesNotExist", "The specified queue does not exist.");
      }
      if (typeof input.MessageBody !== "string" || input.MessageBody === "") {
        throw new SqsError("MissingParameter", "The request must contain the parameter MessageBody.");
      }
      const message = { id: randomUUID(), body: input.MessageBody, sentAt: Date.now(), receiveCount: 0, visibleAt: 0 };
      messages.push(message);
      send(200, { MessageId: message.id, MD5OfMessageBody: createHash("md5").update(message.body).digest("hex") });
      pump();
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
  const queue: LocalQueue = {
    queueUrl: `${served.url}/${ACCOUNT}/${name}`,
    attach(read) {
      reader = read;
      pump();
    },
    detach: () => {
      reader = undefined;
      return new Promise((resolve) => {
        if (running === 0) resolve();
        else idle.push(resolve);
      });
    },
    drain: () =>
      new Promise((resolve) => {
        if (settled() || !reader) resolve();
        else waiters.push(resolve);
      }),
    failed: () => [...setAside],
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await served.stop();
    },
  };
  return queue;
}
