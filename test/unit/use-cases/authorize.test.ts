import { describe, expect, it } from "vitest";
import { generateApiKey } from "#shared/domain/credentials";
import { authorize } from "#shared/use-cases/public/authorize";
import { anApp, appId, InMemoryAppStore } from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

function setup(environment: "sandbox" | "production" = "sandbox") {
  const apps = new InMemoryAppStore().put(anApp({ environment }));
  const clock = new FixedClock(T0);
  return { apps, clock, deps: { apps, clock, environment } };
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
    apps.keys.set(key.pk, { ...key, environment: "production" });

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "unauthorized" });
  });

  it("denies a good key of a disabled app, naming the app", async () => {
    const { apps, deps } = setup();
    const { apiKey, key } = apps.issueKey(appId(1));
    apps.keys.set(key.pk, { ...key, app_status: "disabled" });

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "deny", appId: appId(1) });
  });

  it("allows a production key in production", async () => {
    const { apps, deps } = setup("production");
    const { apiKey } = apps.issueKey(appId(1));

    expect(await authorize(deps, apiKey)).toEqual({ outcome: "allow", appId: appId(1), environment: "production" });
  });
});
