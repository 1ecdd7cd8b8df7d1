/**
 * A fault-injecting proxy in front of DynamoDB Local or the S3 engine: for an error or a
 * delay no real engine can be made to produce on demand. Requests that match a rule are
 * held or answered with an injected error; with `chaos` on, every request may also be
 * throttled, failed with a 500 or dropped, at set rates drawn from a seeded generator.
 * Everything else goes to the engine untouched, the Host header included, so a presigned
 * URL signed for the proxy still passes the S3 engine's signature check.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { seededRandom } from "../../scripts/seeded-random.ts";
import { drawFault } from "./fault-draws.ts";

export interface DynamoRequest {
  /** The operation, e.g. `PutItem`. */
  operation: string;
  table: string | undefined;
  /** Every table the request names: its own, or each of a transaction's items'. */
  tables: string[];
  /** The SDK call it belongs to: every attempt of one call (its own retries) carries the same id. */
  call: string | undefined;
}

export type FaultKind = "throttle" | "error" | "drop";

export interface ChaosOptions {
  /** The seed of the generator that decides which requests fail. */
  seed: number;
  /** The share (0 to 1) of requests that get each kind of fault. */
  rates: Record<FaultKind, number>;
}

export interface FaultCounts {
  requests: number;
  throttle: number;
  error: number;
  drop: number;
}

type Rule =
  | { match: (request: DynamoRequest) => boolean; kind: "hold"; reached: () => void; released: Promise<void> }
  | { match: (request: DynamoRequest) => boolean; kind: "fail"; status: number; errorType: string; remaining: number };

export interface FaultProxy {
  endpoint: string;
  /** Holds the next matching request until `release` is called. */
  hold(match: (request: DynamoRequest) => boolean): { reached: Promise<void>; release: () => void };
  /** Answers the next `times` matching requests with a DynamoDB error of `errorType`, until `stop`. */
  fail(
    match: (request: DynamoRequest) => boolean,
    errorType: string,
    status: number,
    times: number,
  ): { stop: () => void };
  /** Injects faults into every request from now on, until `calm`. */
  chaos(options: ChaosOptions): void;
  calm(): void;
  /** Requests seen and faults injected since the proxy started. */
  counts(): FaultCounts;
  /** Calls `listener` with every request as it arrives, until the returned function is called. */
  watch(listener: (request: DynamoRequest) => void): () => void;
  /** Drops every rule that has not fired yet. */
  reset(): void;
  stop(): Promise<void>;
}

/** The errors each engine really answers with, in its own wire format. */
const INJECTED: Record<"dynamodb" | "s3", Record<"throttle" | "error", { status: number; code: string }>> = {
  dynamodb: {
    throttle: { status: 400, code: "ProvisionedThroughputExceededException" },
    error: { status: 500, code: "InternalServerError" },
  },
  s3: {
    throttle: { status: 503, code: "SlowDown" },
    error: { status: 500, code: "InternalError" },
  },
};

function dynamoError(res: http.ServerResponse, status: number, errorType: string): void {
  const payload = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${errorType}`, message: "injected" });
  res.writeHead(status, {
    "Content-Type": "application/x-amz-json-1.0",
    "Content-Length": Buffer.byteLength(payload),
  });
  res.end(payload);
}

function s3Error(res: http.ServerResponse, status: number, code: string): void {
  const payload = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>injected</Message></Error>`;
  res.writeHead(status, { "Content-Type": "application/xml", "Content-Length": Buffer.byteLength(payload) });
  res.end(payload);
}

/** The tables a transaction's items name (`TransactItems[].Put.TableName`, and so on). */
function transactionTables(parsed: Record<string, unknown>): string[] {
  const items = Array.isArray(parsed.TransactItems) ? (parsed.TransactItems as Record<string, unknown>[]) : [];
  return items.flatMap((item) =>
    Object.values(item).flatMap((action) => {
      const name = (action as { TableName?: unknown } | undefined)?.TableName;
      return typeof name === "string" ? [name] : [];
    }),
  );
}

/** What a rule matches a request by: its DynamoDB operation and table (none for S3), and the SDK call it belongs to. */
function dynamoRequestOf(req: http.IncomingMessage, body: Buffer): DynamoRequest {
  const operation = String(req.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
  let parsed: Record<string, unknown> = {};
  try {
    const json: unknown = JSON.parse(body.toString("utf8"));
    if (json && typeof json === "object" && !Array.isArray(json)) parsed = json as Record<string, unknown>;
  } catch {
    // Not JSON: an S3 request.
  }
  const table = typeof parsed.TableName === "string" ? parsed.TableName : undefined;
  const invocation = req.headers["amz-sdk-invocation-id"];
  return {
    operation,
    table,
    tables: table === undefined ? transactionTables(parsed) : [table],
    call: typeof invocation === "string" ? invocation : undefined,
  };
}

/** The request passed on to the engine as it came, and its answer passed back. */
function forwardTo(target: URL, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
  const forward = http.request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    },
  );
  forward.on("error", () => res.destroy());
  forward.end(body);
}

export async function startFaultProxy(
  upstream: string,
  options: { service?: "dynamodb" | "s3" } = {},
): Promise<FaultProxy> {
  const service = options.service ?? "dynamodb";
  const target = new URL(upstream);
  const rules: Rule[] = [];
  const counts: FaultCounts = { requests: 0, throttle: 0, error: 0, drop: 0 };
  let chaos: { random: () => number; rates: Record<FaultKind, number> } | undefined;
  const listeners = new Set<(request: DynamoRequest) => void>();

  /** The fault this request gets, if any: one draw, split by the rates. */
  const draw = (): FaultKind | undefined =>
    chaos ? drawFault(chaos.random, ["throttle", "error", "drop"], chaos.rates) : undefined;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    counts.requests += 1;
    const request = dynamoRequestOf(req, body);
    for (const listener of listeners) listener(request);
    const index = rules.findIndex((rule) => rule.match(request));
    const rule = index >= 0 ? rules[index] : undefined;
    if (rule?.kind === "fail") {
      rule.remaining -= 1;
      if (rule.remaining <= 0) rules.splice(index, 1);
      dynamoError(res, rule.status, rule.errorType);
      return;
    }
    if (rule?.kind === "hold") {
      rules.splice(index, 1);
      rule.reached();
      await rule.released;
    }
    const fault = draw();
    if (fault) counts[fault] += 1;
    if (fault === "drop") {
      // The connection dies before the engine sees the request: the client gets no answer at all.
      req.socket.destroy();
      return;
    }
    if (fault) {
      const { status, code } = INJECTED[service][fault];
      if (service === "dynamodb") dynamoError(res, status, code);
      else s3Error(res, status, code);
      return;
    }
    forwardTo(target, req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    hold(match) {
      let reached: () => void = () => {};
      let release: () => void = () => {};
      const reachedPromise = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      rules.push({ match, kind: "hold", reached, released });
      return { reached: reachedPromise, release };
    },
    fail(match, errorType, status, times) {
      const rule: Rule = { match, kind: "fail", status, errorType, remaining: times };
      rules.push(rule);
      return {
        stop() {
          const index = rules.indexOf(rule);
          if (index >= 0) rules.splice(index, 1);
        },
      };
    },
    chaos({ seed, rates }) {
      chaos = { random: seededRandom(seed), rates };
    },
    calm() {
      chaos = undefined;
    },
    counts: () => ({ ...counts }),
    watch(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    reset() {
      rules.length = 0;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
