/**
 * The web ACL's rate rules, as the local gateway enforces them in front of the stage: a flood
 * of junk keys from one address, and a flood from one app, are refused at the edge while an
 * app calling from elsewhere is served. The limits here are small so the floods stay short;
 * the deployed numbers are the stack test's.
 */
import { describe, expect, it } from "vitest";
import { EDGE_RESPONSES } from "#shared/declarations/edge";
import { rawCall } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const LIMITS = { perSourceIp: 30, perApiKey: 20 };
const fx = useApiFixture({ edge: LIMITS });
const UNKNOWN = "/v1/verifications/ver_01JD0000000000000000000000";

const get = (key: string, from: string) =>
  rawCall(fx.api.baseUrl, "GET", UNKNOWN, [["X-API-Key", key]], undefined, from);

describe("the web ACL's rate rules", () => {
  it("refuse a junk-key flood from one address and one app's flood, and leave another app served", async () => {
    const appA = await fx.api.newApp();

    const junk = await Promise.all(
      Array.from({ length: LIMITS.perSourceIp + 15 }, (_, i) => get(`vk_sandbox_junk${i}`, "127.0.0.2")),
    );
    const flood = await Promise.all(
      Array.from({ length: LIMITS.perApiKey + 15 }, () => get(appA.api_key, "127.0.0.3")),
    );

    const edgeRefused = (replies: typeof junk) => replies.filter((reply) => reply.status === 429);
    // A window's worth passes (and a little more as the bucket refills during the flood); the rest is refused.
    const passed = (replies: typeof junk, status: number) => replies.filter((reply) => reply.status === status).length;
    expect(passed(junk, 401)).toBeGreaterThanOrEqual(LIMITS.perSourceIp);
    expect(passed(junk, 401)).toBeLessThan(LIMITS.perSourceIp + 5);
    expect(passed(junk, 401) + edgeRefused(junk).length).toBe(junk.length);
    expect(passed(flood, 404)).toBeGreaterThanOrEqual(LIMITS.perApiKey);
    expect(passed(flood, 404)).toBeLessThan(LIMITS.perApiKey + 5);
    expect(passed(flood, 404) + edgeRefused(flood).length).toBe(flood.length);
    for (const reply of [...edgeRefused(junk), ...edgeRefused(flood)]) {
      // The ACL's own answer: before API Gateway, so JSON without a request id.
      expect(reply.text).toBe(EDGE_RESPONSES.rateLimited.body);
      expect(reply.headers.get("retry-after")).toBe("60");
      expect(reply.headers.get("request-id")).toBeNull();
    }

    // Another app, from another address, while both floods go on (a token or two may have come back meanwhile).
    const [served, junkMore, floodMore] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => get(fx.app.api_key, "127.0.0.1"))),
      Promise.all(Array.from({ length: 5 }, (_, i) => get(`vk_sandbox_more${i}`, "127.0.0.2"))),
      Promise.all(Array.from({ length: 5 }, () => get(appA.api_key, "127.0.0.3"))),
    ]);
    expect(served.map((reply) => reply.status)).toEqual(Array(10).fill(404));
    expect(edgeRefused(junkMore).length).toBeGreaterThanOrEqual(3);
    expect(edgeRefused(floodMore).length).toBeGreaterThanOrEqual(3);
  });
});
