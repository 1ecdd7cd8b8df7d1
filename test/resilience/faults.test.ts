/**
 * The API under injected faults: DynamoDB Local and the S3 engine each sit behind a proxy
 * that throttles, fails with a 500 or drops the connection of 10 % of requests apiece.
 * A customer that follows the contract must still end with exactly one verification per
 * Idempotency-Key, never see a stack or an internal name, and every upload it confirms
 * must reach a terminal state with its event.
 *
 * S3: the functions' S3 client points at the proxy, so upload URLs are signed for the
 * proxy's host and customers upload through it, faults included. The shared S3 engine's
 * signature check signs for its own address, so this file starts its own engine, whose
 * check signs with the functions' client and therefore for the proxy's host; the proxy
 * forwards the Host header unchanged.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isTerminal } from "#shared/domain/state";
import type { VerificationItem } from "#shared/domain/verification";
import type { EventItem } from "#shared/domain/webhook-events";
import { type Engine, freePort, startS3 } from "../../local/engines.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { expectVerification, validBody } from "../support/client.ts";
import { ContractClient } from "../support/contract-client.ts";
import { pdfDocument } from "../support/documents.ts";
import { type DynamoRequest, type FaultProxy, startFaultProxy } from "../support/fault-proxy.ts";

const KEYS = 50;
const CREATES_PER_KEY = 4;
const RATES = { throttle: 0.1, error: 0.1, drop: 0.1 };
const DYNAMO_SEED = Number(process.env.RESILIENCE_SEED ?? 7001);
const S3_SEED = DYNAMO_SEED + 1;
/** The sandbox's authority answers, by reference prefix: a mix of every terminal state. */
const REFERENCES = ["test_verified_", "test_rejected_", "test_inconclusive_", "test_failed_", "student-"];

let dynamoProxy: FaultProxy;
let s3Proxy: FaultProxy;
let s3: Engine;
let api: TestApi;
let client: ContractClient;
let appId: string;

beforeAll(async () => {
  const s3Port = await freePort();
  dynamoProxy = await startFaultProxy(inject("engines").dynamoEndpoint);
  s3Proxy = await startFaultProxy(`http://127.0.0.1:${s3Port}`, { service: "s3" });
  api = await startApi({ dynamoEndpoint: dynamoProxy.endpoint, s3Endpoint: s3Proxy.endpoint, pipeline: true });
  // Started after startApi, so its signature check signs as the functions' client does: for the proxy.
  s3 = await startS3({ port: s3Port, credentials: inject("engines").credentials });
  const app = await api.newApp();
  appId = app.app_id;
  client = new ContractClient(api.baseUrl, app.api_key);
});
afterAll(async () => {
  await api.stop();
  await s3.stop();
  await s3Proxy.stop();
  await dynamoProxy.stop();
});

async function waitFor<T>(what: () => string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what()} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a create whose result cannot be saved", () => {
  it("answers 500 and frees its key: the retry makes the one verification for that key at once", async () => {
    const other = await api.newApp();
    const customer = new ContractClient(api.baseUrl, other.api_key, 1);
    const saveResult = (request: DynamoRequest) =>
      request.operation === "UpdateItem" && request.table === api.tables.idempotency;
    dynamoProxy.fail(saveResult, "InternalServerError", 500, 10);
    const failed = await customer.create(validBody(), "result-not-saved");
    dynamoProxy.reset();
    expect(failed?.status).toBe(500);
    const retried = await customer.create(validBody(), "result-not-saved");
    expect(retried?.status, retried?.text).toBe(201);
    expect(retried?.headers.get("idempotent-replayed")).toBeNull();
    const items = (await api.scan(api.tables.verifications)) as unknown as VerificationItem[];
    expect(items.filter((item) => item.app_id === other.app_id)).toHaveLength(1);
  });
});

/**
 * A failed create frees its Idempotency-Key before it answers, however long the cleanup's own
 * writes keep failing (within the request's time): the client that retries as the contract says
 * gets its one verification, instead of `409 idempotency_request_in_progress` until the record
 * in progress lapses.
 */
describe("a failed create whose cleanup meets faults", () => {
  /**
   * Calls of the cleanup's step that fail (each with every retry the SDK makes of it): more than
   * a cleanup that gives up after a fixed handful of tries outlasts, a few seconds in all.
   */
  const CLEANUP_FAILURES = 12;
  const idempotencyDelete = (request: DynamoRequest) =>
    request.operation === "DeleteItem" && request.table === api.tables.idempotency;
  const verificationDelete = (request: DynamoRequest) =>
    request.operation === "DeleteItem" && request.table === api.tables.verifications;

  /** Fails every `write` until the first `cleanup` request arrives: the one request fails, its retries do not. */
  function failUntilCleanup(write: (request: DynamoRequest) => boolean, cleanup: (request: DynamoRequest) => boolean) {
    const rule = dynamoProxy.fail(write, "InternalServerError", 500, Number.POSITIVE_INFINITY);
    const stopWatching = dynamoProxy.watch((request) => {
      if (!cleanup(request)) return;
      rule.stop();
      stopWatching();
    });
  }

  /** Fails every attempt of the first `calls` SDK calls that match. */
  function failCalls(match: (request: DynamoRequest) => boolean, calls: number) {
    const failing = new Set<string | undefined>();
    dynamoProxy.fail(
      (request) => {
        if (!match(request)) return false;
        if (failing.size < calls) failing.add(request.call);
        return failing.has(request.call);
      },
      "InternalServerError",
      500,
      Number.POSITIVE_INFINITY,
    );
    return { failed: () => failing.size };
  }

  async function createThroughTheFaults(key: string) {
    const other = await api.newApp();
    const customer = new ContractClient(api.baseUrl, other.api_key);
    const reply = await customer.create(validBody(), key);
    dynamoProxy.reset();
    const items = (await api.scan(api.tables.verifications)) as unknown as VerificationItem[];
    return { reply, customer, mine: items.filter((item) => item.app_id === other.app_id) };
  }

  it("whose in-progress record cannot be deleted: the client's retry makes the one verification", async () => {
    // The verification cannot be written, and then the record in progress cannot be deleted for a while.
    failUntilCleanup(
      // Its creation: a transaction with the request's record.
      (request) => request.operation === "TransactWriteItems" && request.tables.includes(api.tables.verifications),
      idempotencyDelete,
    );
    const deletes = failCalls(idempotencyDelete, CLEANUP_FAILURES);

    const { reply, customer, mine } = await createThroughTheFaults("cleanup-delete-fails");

    expect(reply?.status, reply?.text).toBe(201);
    expect(deletes.failed()).toBe(CLEANUP_FAILURES);
    expect(customer.stats.statuses[500], JSON.stringify(customer.stats)).toBeGreaterThanOrEqual(1);
    expect(mine.map((item) => item.verification_id)).toEqual([
      expectVerification(reply as NonNullable<typeof reply>).verification_id,
    ]);
  }, 60_000);

  it("whose result cannot be saved and whose verification cannot be removed at once: still one verification", async () => {
    failUntilCleanup(
      (request) => request.operation === "UpdateItem" && request.table === api.tables.idempotency,
      verificationDelete,
    );
    const discards = failCalls(verificationDelete, CLEANUP_FAILURES);

    const { reply, customer, mine } = await createThroughTheFaults("cleanup-discard-fails");

    expect(reply?.status, reply?.text).toBe(201);
    expect(discards.failed()).toBe(CLEANUP_FAILURES);
    expect(customer.stats.statuses[500], JSON.stringify(customer.stats)).toBeGreaterThanOrEqual(1);
    expect(mine.map((item) => item.verification_id)).toEqual([
      expectVerification(reply as NonNullable<typeof reply>).verification_id,
    ]);
  }, 60_000);
});

describe("the API behind a proxy that throttles, fails and drops 10 % of DynamoDB and S3 requests each", () => {
  it("keeps one verification per key, leaks nothing, and finishes every confirmed upload with its event", async () => {
    const document = await pdfDocument();
    dynamoProxy.chaos({ seed: DYNAMO_SEED, rates: RATES });
    s3Proxy.chaos({ seed: S3_SEED, rates: RATES });
    const started = Date.now();

    const perKey = await Promise.all(
      Array.from({ length: KEYS }, async (_, k) => {
        const key = `resilience-${DYNAMO_SEED}-${k}`;
        const body = validBody({
          external_reference_id: `${REFERENCES[k % REFERENCES.length]}${k}`,
          file_size_bytes: document.length,
        });
        // Two at once (the second meets the first in progress), then the rest one after another.
        const replies = await Promise.all([client.create(body, key), client.create(body, key)]);
        for (let n = 2; n < CREATES_PER_KEY; n += 1) replies.push(await client.create(body, key));
        const resources = replies.map((reply) => {
          expect(reply?.status, reply?.text).toBe(201);
          return expectVerification(reply as NonNullable<typeof reply>);
        });
        const ids = new Set(resources.map((r) => r.verification_id));
        expect(ids.size, `key ${key} answered with ${[...ids].join(", ")}`).toBe(1);
        const first = resources[0] as (typeof resources)[number];
        expect(await client.upload(first, document)).toBe(200);
        const confirmed = await client.confirm(first.verification_id);
        expect(confirmed?.status, confirmed?.text).toBe(200);
        return first.verification_id;
      }),
    );
    const apiSeconds = (Date.now() - started) / 1000;
    // The pipeline has worked under the same faults all along (a failed record is retried from
    // where it failed). It takes one record at a time, so under 30 % faults with the SDK's
    // backoff it would need about 40 s more: the faults stop here, and what remains finishes.
    dynamoProxy.calm();
    s3Proxy.calm();
    const dynamo = dynamoProxy.counts();
    const store = s3Proxy.counts();
    const items = (await api.scan(api.tables.verifications)) as unknown as VerificationItem[];
    const settledUnderFaults = items.filter((item) => item.app_id === appId && isTerminal(item.status)).length;

    // The pipeline works under the same faults; it retries failed records until they pass.
    const confirmedIds = new Set(perKey);
    let statuses: Record<string, number> = {};
    const finals = await waitFor(
      () => `every confirmed upload reaching a terminal state (now ${JSON.stringify(statuses)})`,
      30_000,
      async () => {
        const items = (await api.scan(api.tables.verifications)) as unknown as VerificationItem[];
        const mine = items.filter((item) => item.app_id === appId);
        statuses = countBy(mine.map((item) => item.status));
        return mine.every((item) => !confirmedIds.has(item.verification_id) || isTerminal(item.status))
          ? mine
          : undefined;
      },
    );
    const events = await waitFor(
      () => "an event for every terminal state",
      15_000,
      async () => {
        const items = (await api.scan(api.tables.events)).filter(
          (item) => item.sk === "EVENT",
        ) as unknown as EventItem[];
        const terminal = items.filter(
          (event) => confirmedIds.has(event.verification_id ?? "") && event.type !== "verification.processing",
        );
        return terminal.length >= confirmedIds.size ? terminal : undefined;
      },
    );

    expect(finals.map((item) => item.verification_id).sort()).toEqual([...confirmedIds].sort());
    for (const item of finals) {
      const about = events.filter((event) => event.verification_id === item.verification_id);
      expect(
        about.map((event) => [event.type, event.sequence]),
        item.verification_id,
      ).toEqual([[`verification.${item.status}`, item.sequence]]);
    }
    expect(new Set(finals.map((item) => item.status))).toEqual(new Set(["completed", "failed"]));
    expect(client.stats.gaveUp).toBe(0);

    console.log(
      [
        `resilience/faults: seeds dynamodb=${DYNAMO_SEED} s3=${S3_SEED}, rates 10 % throttle, 10 % 500, 10 % dropped each`,
        `  customer: ${KEYS * CREATES_PER_KEY} creates across ${KEYS} keys, ${KEYS} uploads, ${KEYS} confirms in ${apiSeconds.toFixed(1)} s`,
        `  customer: ${client.stats.requests} HTTP requests, ${client.stats.retries} retries, ${client.stats.networkErrors} network errors, statuses ${JSON.stringify(client.stats.statuses)}`,
        `  DynamoDB proxy: ${dynamo.requests} requests, ${dynamo.throttle} throttled, ${dynamo.error} 500s, ${dynamo.drop} dropped`,
        `  S3 proxy: ${store.requests} requests, ${store.throttle} SlowDown, ${store.error} 500s, ${store.drop} dropped`,
        `  pipeline: ${settledUnderFaults} of ${KEYS} terminal while the faults were on, the rest after`,
        `  outcome: ${finals.length} terminal (${JSON.stringify(countBy(finals.map((f) => `${f.status}/${f.result ?? "-"}`)))}), ${events.length} terminal events`,
      ].join("\n"),
    );
  }, 90_000);
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
