/**
 * A proxy in front of the e-Devlet simulator that makes a share of lookups meet a bad day: each
 * lookup's barcode step (the form's step 2) is answered busy (`429` with `Retry-After`, as
 * e-Devlet answers when it queues callers) or held without an answer until the caller gives up
 * (its budget runs out: a timeout), or passed on. Every other request goes to the simulator
 * untouched, cookies included. Which lookups fail is drawn from a seeded generator; the first
 * lookups take each kind of fault in turn, so every run meets both.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { EDEVLET_FORM } from "#shared/domain/edevlet";
import { BUSY_RETRY_AFTER_SECONDS, SIMULATOR_TEXTS } from "#shared/simulator/protocol";
import { seededFaults } from "./fault-draws.ts";

export type IssuerFault = "busy" | "timeout";

export interface IssuerFaultCounts {
  /** Lookups that reached the barcode step. */
  lookups: number;
  busy: number;
  timeout: number;
}

export interface IssuerFaults {
  url: string;
  /** Where the simulator listens; set once it has started. */
  upstream: string;
  /** No more faults from now on. */
  calm(): void;
  counts(): IssuerFaultCounts;
  stop(): Promise<void>;
}

const FAULTS = ["timeout", "busy"] as const satisfies readonly IssuerFault[];

export async function startIssuerFaults(options: {
  seed: number;
  rates: Record<IssuerFault, number>;
}): Promise<IssuerFaults> {
  const next = seededFaults(options.seed, FAULTS, options.rates);
  const counts: IssuerFaultCounts = { lookups: 0, busy: 0, timeout: 0 };
  let calm = false;

  function draw(): IssuerFault | undefined {
    if (calm) return undefined;
    counts.lookups += 1;
    return next();
  }

  const proxy = {
    url: "",
    upstream: "",
    calm() {
      calm = true;
    },
    counts: () => ({ ...counts }),
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const fault = req.method === "POST" && req.url === EDEVLET_FORM.barcode ? draw() : undefined;
    if (fault) counts[fault] += 1;
    if (fault === "timeout") {
      // No answer: the caller's budget runs out, and it goes away.
      return;
    }
    if (fault === "busy") {
      const page = `<!DOCTYPE html><html lang="tr"><body><p>${SIMULATOR_TEXTS.busy}</p></body></html>`;
      res.writeHead(429, {
        "Content-Type": "text/html; charset=utf-8",
        "Retry-After": String(BUSY_RETRY_AFTER_SECONDS),
        "Content-Length": Buffer.byteLength(page),
      });
      res.end(page);
      return;
    }
    const target = new URL(proxy.upstream);
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
