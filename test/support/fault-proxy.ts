/**
 * A fault-injecting proxy in front of DynamoDB Local: for an error or a delay no real
 * engine can be made to produce on demand. Requests that match a rule are held or
 * answered with an injected error; everything else goes to the engine untouched.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface DynamoRequest {
  /** The operation, e.g. `PutItem`. */
  operation: string;
  table: string | undefined;
}

type Rule =
  | { match: (request: DynamoRequest) => boolean; kind: "hold"; reached: () => void; released: Promise<void> }
  | { match: (request: DynamoRequest) => boolean; kind: "fail"; status: number; errorType: string; remaining: number };

export interface FaultProxy {
  endpoint: string;
  /** Holds the next matching request until `release` is called. */
  hold(match: (request: DynamoRequest) => boolean): { reached: Promise<void>; release: () => void };
  /** Answers the next `times` matching requests with a DynamoDB error of `errorType`. */
  fail(match: (request: DynamoRequest) => boolean, errorType: string, status: number, times: number): void;
  /** Drops every rule that has not fired yet. */
  reset(): void;
  stop(): Promise<void>;
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const rules: Rule[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const operation = String(req.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
    let table: string | undefined;
    try {
      table = (JSON.parse(body.toString("utf8")) as { TableName?: string }).TableName;
    } catch {
      table = undefined;
    }
    const index = rules.findIndex((rule) => rule.match({ operation, table }));
    const rule = index >= 0 ? rules[index] : undefined;
    if (rule?.kind === "fail") {
      rule.remaining -= 1;
      if (rule.remaining <= 0) rules.splice(index, 1);
      const payload = JSON.stringify({
        __type: `com.amazonaws.dynamodb.v20120810#${rule.errorType}`,
        message: "injected",
      });
      res.writeHead(rule.status, {
        "Content-Type": "application/x-amz-json-1.0",
        "Content-Length": Buffer.byteLength(payload),
      });
      res.end(payload);
      return;
    }
    if (rule?.kind === "hold") {
      rules.splice(index, 1);
      rule.reached();
      await rule.released;
    }
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    forward.end(body);
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
      rules.push({ match, kind: "fail", status, errorType, remaining: times });
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
