/**
 * Stage throttling and each app's own rate, answered as API Gateway answers them: `429
 * rate_limited` with `Retry-After`. The app's rate is the contract's (sandbox 25 req/s, burst
 * 50), held per app: a second app is served while the first is refused.
 */
import { describe, expect, it } from "vitest";
import { APP_THROTTLING } from "#shared/declarations/routes";
import { Customer, expectProblem, type Reply } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const STAGE = { rateLimit: 1, burstLimit: 300 };
const fx = useApiFixture({ throttle: STAGE, appThrottle: APP_THROTTLING.sandbox });
const UNKNOWN = "ver_01JD0000000000000000000000";

function expectRateLimited(replies: Reply[]) {
  for (const reply of replies) {
    expectProblem(reply, 429, "rate_limited");
    expect(reply.headers.get("retry-after")).toBe("1");
  }
}

describe("request rates", () => {
  it("hold each app to the contract's rate past its burst, while another app is served", async () => {
    const { burstLimit, rateLimit } = APP_THROTTLING.sandbox;
    const other = new Customer(fx.api.baseUrl, (await fx.api.newApp()).api_key);
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: burstLimit + 120 }, () => fx.customer.get(UNKNOWN)));
    const seconds = (Date.now() - started) / 1000;
    const others = await Promise.all(Array.from({ length: 10 }, () => other.get(UNKNOWN)));

    const throttled = replies.filter((reply) => reply.status === 429);
    const served = replies.filter((reply) => reply.status === 404);
    expect(served.length + throttled.length).toBe(replies.length);
    expect(served.length).toBeGreaterThanOrEqual(burstLimit);
    // A token bucket serves its burst and what refills while the requests are answered (25 a
    // second), however long a busy machine takes to answer them: never all 170.
    expect(served.length).toBeLessThanOrEqual(burstLimit + Math.ceil(seconds * rateLimit));
    expect(throttled.length).toBeGreaterThan(0);
    expectRateLimited(throttled);
    expect(others.map((reply) => reply.status)).toEqual(Array(10).fill(404));
  });

  it("refuse every caller past the stage's burst, as API Gateway does", async () => {
    const apps = await Promise.all(Array.from({ length: 8 }, () => fx.api.newApp()));
    // Forty requests from each of eight apps: within each app's burst, past the stage's.
    const replies = await Promise.all(
      apps.flatMap((app) => Array.from({ length: 40 }, () => new Customer(fx.api.baseUrl, app.api_key).get(UNKNOWN))),
    );
    const throttled = replies.filter((reply) => reply.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(replies.filter((reply) => reply.status === 404).length + throttled.length).toBe(replies.length);
    expectRateLimited(throttled);
  });
});
