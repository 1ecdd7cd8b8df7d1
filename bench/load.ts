/**
 * Load: autocannon against the local runtime for a fixed time, every connection cycling
 * through a create with a fresh key, a create replaying a finished key, a fetch and a confirm
 * of an uploaded document.
 */
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { BenchCustomer, createBody, expectResource, overHttp } from "./customer.ts";
import type { BenchApi } from "./local-api.ts";
import { round } from "./stats.ts";

type Kind = "create (fresh key)" | "create (replayed key)" | "fetch" | "confirm";

export interface LoadResult {
  durationSeconds: number;
  connections: number;
  requests: number;
  throughputPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; p99_9: number; max: number };
  byKind: Record<Kind, { requests: number; unexpected: number; statuses: Record<string, number> }>;
  /** Responses that were not the 2xx the step expects (a replay must also say it replayed). */
  unexpected: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Confirms issued after every prepared upload was confirmed once (they answer the current state). */
  repeatedConfirms: number;
}

/** autocannon hands over headers as the server spelled them. */
function replayedHeader(headers: Record<string, string>): string | undefined {
  return Object.entries(headers).find(([name]) => name.toLowerCase() === "idempotent-replayed")?.[1];
}

async function inParallel<T>(count: number, width: number, make: () => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (made.length < count) {
        made.push(await make());
      }
    }),
  );
  return made.slice(0, count);
}

export async function runLoad(
  api: BenchApi,
  options: { durationSeconds: number; connections: number; uploads: number; replayKeys: number },
): Promise<LoadResult> {
  const app = await api.newApp();
  const customer = new BenchCustomer(overHttp(api.baseUrl), app.api_key);
  const body = createBody();

  // Arranged before the clock starts: finished keys to replay, and uploaded documents to confirm.
  const replays = await inParallel(options.replayKeys, 4, async () => {
    const key = randomUUID();
    const resource = expectResource(await customer.create(key, body), 201);
    return { key, id: resource.verification_id };
  });
  const uploads = await inParallel(options.uploads, 8, () => customer.uploaded());

  const byKind = Object.fromEntries(
    (["create (fresh key)", "create (replayed key)", "fetch", "confirm"] as const).map((kind) => [
      kind,
      { requests: 0, unexpected: 0, statuses: {} as Record<string, number> },
    ]),
  ) as LoadResult["byKind"];
  const tally = (kind: Kind, status: number, expected: boolean) => {
    const entry = byKind[kind];
    entry.requests++;
    entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
    if (!expected) entry.unexpected++;
  };

  let nextUpload = 0;
  let nextReplay = 0;
  let repeatedConfirms = 0;
  const headers = { "X-API-Key": app.api_key };
  const json = { ...headers, "Content-Type": "application/json" };
  const result = await autocannon({
    url: api.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [
      {
        method: "POST",
        path: "/v1/verifications",
        body,
        setupRequest: (request) => ({ ...request, headers: { ...json, "Idempotency-Key": randomUUID() } }),
        onResponse: (status) => tally("create (fresh key)", status, status === 201),
      },
      {
        method: "POST",
        path: "/v1/verifications",
        body,
        setupRequest: (request) => {
          const replay = replays[nextReplay++ % replays.length];
          return { ...request, headers: { ...json, "Idempotency-Key": replay?.key ?? "" } };
        },
        onResponse: (status, _body, _context, responseHeaders) =>
          tally("create (replayed key)", status, status === 201 && replayedHeader(responseHeaders) === "true"),
      },
      {
        method: "GET",
        setupRequest: (request) => ({
          ...request,
          headers,
          path: `/v1/verifications/${replays[nextReplay % replays.length]?.id}`,
        }),
        onResponse: (status) => tally("fetch", status, status === 200),
      },
      {
        method: "POST",
        setupRequest: (request) => {
          if (nextUpload >= uploads.length) repeatedConfirms++;
          const upload = uploads[nextUpload++ % uploads.length];
          return { ...request, headers, path: `/v1/verifications/${upload?.verification_id}/upload-complete` };
        },
        onResponse: (status) => tally("confirm", status, status === 200),
      },
    ],
  });

  const unexpected = Object.values(byKind).reduce((sum, entry) => sum + entry.unexpected, 0);
  return {
    durationSeconds: result.duration,
    connections: result.connections,
    requests: result.requests.total,
    throughputPerSecond: round(result.requests.total / result.duration, 1),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      p99_9: result.latency.p99_9,
      max: result.latency.max,
    },
    byKind,
    unexpected,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    repeatedConfirms,
  };
}
