import { describe, expect, it } from "vitest";
import { STAGE_THROTTLING } from "#shared/declarations/routes";
import { expectProblem } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture({ throttle: STAGE_THROTTLING.sandbox });

describe("stage throttling", () => {
  it("answers 429 rate_limited with Retry-After past the sandbox's burst, as API Gateway does", async () => {
    const { burstLimit } = STAGE_THROTTLING.sandbox;
    const replies = await Promise.all(
      Array.from({ length: burstLimit + 40 }, () => fx.customer.get("ver_01JD0000000000000000000000")),
    );
    const throttled = replies.filter((reply) => reply.status === 429);
    const served = replies.filter((reply) => reply.status === 404);
    expect(served.length + throttled.length).toBe(replies.length);
    expect(served.length).toBeGreaterThanOrEqual(burstLimit);
    expect(throttled.length).toBeGreaterThan(0);
    for (const reply of throttled) {
      expectProblem(reply, 429, "rate_limited");
      expect(reply.headers.get("retry-after")).toBe("1");
    }
  });
});
