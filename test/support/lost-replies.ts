/**
 * A proxy in front of DynamoDB (or of a fault proxy in front of it) that loses the answer to a
 * share of writes after the engine has applied them: the caller gets a `500 InternalServerError`,
 * as DynamoDB answers when it cannot say whether a write took effect, and the SDK sends the same
 * request again. Which writes lose their answer is drawn from a seeded generator.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { seededRandom } from "../../scripts/seeded-random.ts";

const WRITES = new Set(["PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"]);

export interface LostReplies {
  endpoint: string;
  /** Writes seen, and those applied whose answer was lost. */
  counts(): { writes: number; lost: number };
  calm(): void;
  stop(): Promise<void>;
}

export async function startLostReplies(
  upstream: string,
  options: { seed: number; rate: number; spare?: (table: string | undefined) => boolean },
): Promise<LostReplies> {
  const target = new URL(upstream);
  const random = seededRandom(options.seed);
  const counts = { writes: 0, lost: 0 };
  let calm = false;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const operation = String(req.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
    let table: string | undefined;
    try {
      const parsed = JSON.parse(body.toString("utf8")) as { TableName?: unknown };
      if (typeof parsed.TableName === "string") table = parsed.TableName;
    } catch {
      // Not JSON: nothing to spare.
    }
    const write = WRITES.has(operation) && !options.spare?.(table);
    if (write) counts.writes += 1;
    const lose = write && !calm && random() < options.rate;
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (upstreamRes) => {
        if (!lose || upstreamRes.statusCode !== 200) {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
          return;
        }
        // Applied: the answer is lost on the way back.
        upstreamRes.resume();
        upstreamRes.on("end", () => {
          counts.lost += 1;
          const payload = JSON.stringify({
            __type: "com.amazonaws.dynamodb.v20120810#InternalServerError",
            message: "injected after the write was applied",
          });
          res.writeHead(500, {
            "Content-Type": "application/x-amz-json-1.0",
            "Content-Length": Buffer.byteLength(payload),
          });
          res.end(payload);
        });
      },
    );
    forward.on("error", () => res.destroy());
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts: () => ({ ...counts }),
    calm() {
      calm = true;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
