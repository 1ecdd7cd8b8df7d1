import { describe, expect, it } from "vitest";
import { generateApiKey } from "#shared/domain/credentials";
import { authorize } from "#shared/use-cases/public/authorize";
import { anApp, appId, InMemoryAppStore, RecordingLog } from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

function setup(environment: "sandbox" | "production" = "sandbox") {
  const apps = new InMemoryAppStore().put(anApp({ environment }));
  const clock = new FixedClock(T0);
  const log = new RecordingLog();
  return { apps, clock, log, deps: { apps, clock, environment, log } };
}

describe("authorize", () => {
  it("allows a live key of an active app, with one read of the apps table", async () => {
    const { apps, deps } = setup();
    const { apiKey } = apps.issueKey(appId(1));

    const decision = await authorize(deps, apiKey);

    expect(decision).toEqual({ outcome: "allow", appId: appId(1), environment: "sandbox" });
    expect(apps.keyReads).toBe(1);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["malformed", "vk_sandbox_short"],
    ["of the other environment", generateApiKey("production")],
  ])("refuses a %s key without reading the table", async (_what, apiKey) => {
    const { deps, apps } = setup();

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "unauthorized" });
    expect(apps.keyReads).toBe(0);
  });

  it("refuses a well-formed key that is not stored", async () => {
    const { deps, apps } = setup();

    expect(await authorize(deps, generateApiKey("sandbox"))).toEqual({ outcome: "unauthorized" });
    expect(apps.keyReads).toBe(1);
  });

  it("refuses a revoked key", async () => {
    const { apps, deps } = setup();
    const { apiKey } = apps.issueKey(appId(1), { revoked_at: "2026-11-22T11:59:59Z" });

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "unauthorized" });
  });

  it("lets an expiring key pass until its expiry, and not from then on", async () => {
    const { apps, clock, deps } = setup();
    const { apiKey } = apps.issueKey(appId(1), { expires_at: "2026-11-22T12:00:01Z" });

    const before = await authorize(deps, apiKey);
    clock.advance(1);
    const at = await authorize(deps, apiKey);

    expect(before.outcome).toBe("allow");
    expect(at).toEqual({ outcome: "unauthorized" });
  });

  it("refuses a stored key whose item names another environment than the prefix", async () => {
    const { apps, deps } = setup();
    const { apiKey, key } = apps.issueKey(appId(1));
    apps.keys.set(key.key_hash, { ...key, environment: "production" });

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "unauthorized" });
  });

  it("denies a good key of a disabled app, naming the app", async () => {
    const { apps, deps } = setup();
    const { apiKey, key } = apps.issueKey(appId(1));
    apps.keys.set(key.key_hash, { ...key, app_status: "disabled" });

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "deny", appId: appId(1) });
  });

  it("allows a production key in production", async () => {
    const { apps, deps } = setup("production");
    const { apiKey } = apps.issueKey(appId(1));

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "allow", appId: appId(1), environment: "production" });
  });

  describe("recording a key's use", () => {
    it("records the first use, then writes nothing more until a minute has passed: one read and at most one write a minute", async () => {
      const { apps, clock, deps } = setup();
      const { apiKey, key } = apps.issueKey(appId(1));

      await authorize(deps, apiKey);
      const first = apps.key(key.key_hash).last_used_at;
      for (let second = 0; second < 59; second += 1) {
        clock.advance(1);
        await authorize(deps, apiKey);
      }
      const writesWithinTheMinute = apps.keyUseWrites;
      clock.advance(1);
      await authorize(deps, apiKey);

      expect(first).toBe(T0);
      expect(writesWithinTheMinute).toBe(1);
      expect(apps.keyUseWrites).toBe(2);
      expect(apps.key(key.key_hash).last_used_at).toBe("2026-11-22T12:01:00Z");
      // The extra cost: the same one read per decision, plus one conditional write per key a minute.
      expect(apps.keyReads).toBe(61);
    });

    it("writes nothing for a key whose item says it was used less than a minute ago", async () => {
      const { apps, deps } = setup();
      const { apiKey, key } = apps.issueKey(appId(1));
      apps.keys.set(key.key_hash, { ...key, last_used_at: "2026-11-22T11:59:01Z" });

      expect((await authorize(deps, apiKey)).outcome).toBe("allow");
      expect(apps.keyUseWrites).toBe(0);
    });

    it("leaves the record to the request that won when two read the same stale item", async () => {
      const { apps, deps } = setup();
      const { apiKey, key } = apps.issueKey(appId(1));
      apps.keys.set(key.key_hash, { ...key, last_used_at: "2026-11-22T11:58:00Z" });

      const [one, two] = await Promise.all([authorize(deps, apiKey), authorize(deps, apiKey)]);

      expect([one.outcome, two.outcome]).toEqual(["allow", "allow"]);
      expect(apps.keyUseWrites).toBe(2);
      expect(apps.key(key.key_hash).last_used_at).toBe(T0);
    });

    it("records no use of a refused or denied key", async () => {
      const { apps, deps } = setup();
      const revoked = apps.issueKey(appId(1), { revoked_at: "2026-11-22T11:59:59Z" });
      const denied = apps.issueKey(appId(1));
      apps.keys.set(denied.key.key_hash, { ...denied.key, app_status: "disabled" });

      await authorize(deps, revoked.apiKey);
      await authorize(deps, denied.apiKey);

      expect(apps.keyUseWrites).toBe(0);
    });

    it("still answers when the record cannot be written, and says so in the log without the key", async () => {
      const { apps, deps, log } = setup();
      const { apiKey } = apps.issueKey(appId(1));
      apps.recordKeyUse = async () => {
        throw new Error("ProvisionedThroughputExceededException");
      };

      expect((await authorize(deps, apiKey)).outcome).toBe("allow");
      expect(log.lines.map((line) => [line.level, line.message])).toEqual([["warn", "key_use_not_recorded"]]);
      expect(JSON.stringify(log.lines[0]?.attributes)).not.toContain(apiKey);
    });
  });
});
