/**
 * The three layers that keep one caller from taking another's share, as the local gateway
 * enforces them in the deployed order: the web ACL's rate rules in front of the stage, the
 * stage's throttling, and each app's own bucket in the usage plan after its authorizer. A flood
 * of junk keys from one address and a flood from one app leave another app served. The limits
 * here are small so the floods stay short; the deployed numbers are the stack test's.
 */
import { describe, expect, it } from "vitest";
import { EDGE_RESPONSES } from "#shared/declarations/edge";
import { expectProblem, rawCall } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const LIMITS = { perSourceIp: 30, perApiKey: 20 };
const APP_BURST = 10;
// Room for both floods' share and the other app's requests, not for a flood's whole size.
const fx = useApiFixture({
  edge: LIMITS,
  throttle: { rateLimit: 5, burstLimit: 80 },
  appThrottle: { rateLimit: 1, burstLimit: APP_BURST },
});
const UNKNOWN = "/v1/verifications/ver_01JD0000000000000000000000";

const get = (key: string, from: string) =>
  rawCall(fx.api.baseUrl, "GET", UNKNOWN, [["X-API-Key", key]], undefined, from);

describe("the web ACL, the stage and each app's own bucket", () => {
  it("refuse a junk-key flood from one address and one app's flood, and leave another app served", async () => {
    const appA = await fx.api.newApp();

    const junk = await Promise.all(
      Array.from({ length: LIMITS.perSourceIp + 15 }, (_, i) => get(`vk_sandbox_junk${i}`, "127.0.0.2")),
    );
    const flood = await Promise.all(
      Array.from({ length: LIMITS.perApiKey + 15 }, () => get(appA.api_key, "127.0.0.3")),
    );

    const edgeRefused = (replies: typeof junk) =>
      replies.filter((reply) => reply.status === 429 && reply.headers.get("request-id") === null);
    const planRefused = (replies: typeof junk) =>
      replies.filter((reply) => reply.status === 429 && reply.headers.get("request-id") !== null);
    const passed = (replies: typeof junk, status: number) => replies.filter((reply) => reply.status === status).length;
    // A window's worth passes the ACL (and a little more as its bucket refills during the flood); the rest is refused.
    expect(passed(junk, 401)).toBeGreaterThanOrEqual(LIMITS.perSourceIp);
    expect(passed(junk, 401)).toBeLessThan(LIMITS.perSourceIp + 5);
    expect(passed(junk, 401) + edgeRefused(junk).length).toBe(junk.length);
    // App A's share past the ACL meets its own bucket: a burst's worth is served, the rest refused by its plan.
    const pastEdge = flood.length - edgeRefused(flood).length;
    expect(pastEdge).toBeGreaterThanOrEqual(LIMITS.perApiKey);
    expect(pastEdge).toBeLessThan(LIMITS.perApiKey + 5);
    expect(passed(flood, 404)).toBeGreaterThanOrEqual(APP_BURST);
    expect(passed(flood, 404)).toBeLessThan(APP_BURST + 3);
    expect(passed(flood, 404) + planRefused(flood).length).toBe(pastEdge);
    for (const reply of [...edgeRefused(junk), ...edgeRefused(flood)]) {
      // The ACL's own answer: before API Gateway, so JSON without a request id.
      expect(reply.text).toBe(EDGE_RESPONSES.rateLimited.body);
      expect(reply.headers.get("retry-after")).toBe("60");
    }
    for (const reply of planRefused(flood)) {
      // The plan's answer is API Gateway's: the THROTTLED gateway response, problem+json with a request id.
      expectProblem(reply, 429, "rate_limited");
      expect(reply.headers.get("retry-after")).toBe("1");
    }

    // Another app, from another address, while both floods go on (a token or two may have come back meanwhile).
    const [served, junkMore, floodMore] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => get(fx.app.api_key, "127.0.0.1"))),
      Promise.all(Array.from({ length: 5 }, (_, i) => get(`vk_sandbox_more${i}`, "127.0.0.2"))),
      Promise.all(Array.from({ length: 5 }, () => get(appA.api_key, "127.0.0.3"))),
    ]);
    expect(served.map((reply) => reply.status)).toEqual(Array(10).fill(404));
    expect(edgeRefused(junkMore).length).toBeGreaterThanOrEqual(3);
    expect(floodMore.filter((reply) => reply.status === 429).length).toBeGreaterThanOrEqual(3);
  });
});
