import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { startApi, type TestApi } from "../support/api.ts";
import { Customer, expectProblem, expectVerification, validBody } from "../support/client.ts";
import { type DynamoRequest, type FaultProxy, startFaultProxy } from "../support/fault-proxy.ts";

let proxy: FaultProxy;
let api: TestApi;
let customer: Customer;

beforeAll(async () => {
  proxy = await startFaultProxy(inject("engines").dynamoEndpoint);
  api = await startApi({ dynamoEndpoint: proxy.endpoint });
  customer = new Customer(api.baseUrl, (await api.newApp()).api_key);
});
afterAll(async () => {
  await api.stop();
  await proxy.stop();
});

afterEach(() => proxy.reset());

/** The verification's creation: its put, in a transaction with the request's record. */
const verificationWrite = (request: DynamoRequest) =>
  ["PutItem", "TransactWriteItems"].includes(request.operation) && request.tables.includes(api.tables.verifications);

/** Records are keyed by a hash of (app, key): count them all. */
async function idempotencyRecordCount() {
  return (await api.scan(api.tables.idempotency)).length;
}

describe("Idempotency-Key under concurrency and faults", () => {
  it("answers 409 idempotency_request_in_progress with Retry-After: 1 while the first request runs", async () => {
    const key = crypto.randomUUID();
    const gate = proxy.hold(verificationWrite);
    const first = customer.create(validBody(), key);
    await gate.reached;
    const concurrent = await customer.create(validBody(), key);
    expectProblem(concurrent, 409, "idempotency_request_in_progress");
    expect(concurrent.headers.get("retry-after")).toBe("1");
    gate.release();
    const original = await first;
    expect(original.status).toBe(201);
    const retried = await customer.create(validBody(), key);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.json).toEqual(original.json);
  });

  it("does not store a 500: the retry with the same key creates the verification", async () => {
    const key = crypto.randomUUID();
    const records = await idempotencyRecordCount();
    proxy.fail(verificationWrite, "InternalServerError", 500, 10);
    const failed = await customer.create(validBody(), key);
    expectProblem(failed, 500, "internal_error");
    expect(failed.text).not.toContain("injected");
    expect(await idempotencyRecordCount()).toBe(records);
    proxy.reset();
    const retried = await customer.create(validBody(), key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expectVerification(retried);
  });

  it("answers 503 service_unavailable with Retry-After when DynamoDB throttles, and stores nothing", async () => {
    const key = crypto.randomUUID();
    const records = await idempotencyRecordCount();
    proxy.fail(verificationWrite, "ProvisionedThroughputExceededException", 400, 10);
    const throttled = await customer.create(validBody(), key);
    expectProblem(throttled, 503, "service_unavailable");
    expect(throttled.headers.get("retry-after")).toBe("1");
    expect(await idempotencyRecordCount()).toBe(records);
  });
});
