/**
 * docs/capacity.md quotes the settings it says raise each limit: they must be the ones the
 * code has, so the model does not drift from what is deployed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { edgeLimits } from "#shared/declarations/edge";
import { DELIVERY_QUEUE, ISSUER_QUEUE } from "#shared/declarations/queues";
import { APP_THROTTLING, APPS_AT_FULL_RATE, STAGE_THROTTLING } from "#shared/declarations/routes";
import { CHANGE_STREAM_READING } from "#shared/declarations/stream-filter";
import { PARTITION_SHARDS } from "#shared/domain/shards";

const root = path.resolve(__dirname, "../..");
const model = readFileSync(path.join(root, "docs/capacity.md"), "utf8");
const thousands = (n: number) => n.toLocaleString("en-US");

describe("docs/capacity.md", () => {
  it("uses the rates, shards and concurrency the code declares", () => {
    expect(model).toContain(`${APP_THROTTLING.production.rateLimit} requests/s per app in production`);
    expect(model).toContain(`(${APP_THROTTLING.sandbox.rateLimit} in the sandbox)`);
    expect(model).toContain(`${thousands(STAGE_THROTTLING.production.rateLimit)} requests/s for every app together`);
    expect(APPS_AT_FULL_RATE).toBe(10);
    expect(model).toContain("ten apps' worth");
    expect(model).toContain(`(${PARTITION_SHARDS} shards;`);
    expect(model).toContain(`\`maxConcurrency\` ${DELIVERY_QUEUE.maxConcurrency}`);
    expect(model).toContain(`${DELIVERY_QUEUE.batchSize} messages`);
    expect(model).toContain(`at most ${CHANGE_STREAM_READING.parallelizationFactor} batches at once`);
    expect(model).toContain(`at most ${ISSUER_QUEUE.maxConcurrency} lookups at once per stage`);
    expect(edgeLimits("production").perSourceIp).toBe(STAGE_THROTTLING.production.rateLimit * 60 * 0.6);
  });

  it("names every setting and file it points at as they exist", () => {
    for (const [, file] of model.matchAll(/`(shared\/[^`]+\.ts)`/g)) {
      expect(() => readFileSync(path.join(root, file as string)), file).not.toThrow();
    }
  });
});
