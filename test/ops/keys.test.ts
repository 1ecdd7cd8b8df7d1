/**
 * The API key lifecycle through the real authorizer, over HTTP: rotation with a grace period,
 * revocation, the other environment's keys, disabled apps, the two-live-keys rule.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { systemClock } from "#shared/adapters/system-clock";
import { AUTHORIZER } from "#shared/declarations/public-api";
import { isLiveKey, type KeyItem } from "#shared/domain/apps";
import { RefusedError } from "#shared/domain/errors";
import { setAppStatus } from "#shared/use-cases/accounts/apps";
import { listAppKeys, MAX_GRACE_SECONDS, revokeKeys, rotateKey } from "#shared/use-cases/accounts/keys";
import { startApi, type TestApi } from "../support/api.ts";
import { expectProblem } from "../support/client.ts";
import { code, expectNoPlainSecrets, probe } from "./support.ts";

let api: TestApi;
/** Every key issued here, for the plain-text scan at the end. */
const issued: string[] = [];

beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.stop());
afterEach(() => {
  vi.useRealTimers();
});

async function newApp() {
  const app = await api.newApp();
  issued.push(app.api_key, app.webhook_secret);
  return app;
}

async function rotate(appId: string, graceSeconds?: number) {
  const rotated = await rotateKey({ apps: api.apps, clock: systemClock }, { appId, graceSeconds });
  issued.push(rotated.api_key);
  return rotated;
}

/** A faked clock that the gateway's cache and the authorizer both read; DynamoDB ignores it. */
function controlClock() {
  const start = Date.now();
  vi.useFakeTimers({ toFake: ["Date"], now: start });
  return (seconds: number) => vi.setSystemTime(start + seconds * 1000);
}

const CACHE = AUTHORIZER.cacheTtlSeconds;

describe("rotation", () => {
  it("gives a key that works at once; the old key works through the grace and fails after it", async () => {
    const at = controlClock();
    const app = await newApp();
    expect((await probe(api, app.api_key)).status).toBe(404);

    at(1);
    const rotated = await rotate(app.app_id, 3600);
    expect(rotated.api_key).toMatch(/^vk_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(rotated.expiring).toEqual([expect.objectContaining({ prefix: app.key_prefix, status: "expiring" })]);
    expect((await probe(api, rotated.api_key)).status).toBe(404);

    // Past the cached decision, inside the grace: the authorizer itself lets the old key pass.
    at(3600 - 60);
    expect((await probe(api, app.api_key)).status).toBe(404);

    at(3600 + CACHE + 1);
    expectProblem(await probe(api, app.api_key), 401, "invalid_api_key");
    expect((await probe(api, rotated.api_key)).status).toBe(404);
    const statuses = (await listAppKeys({ apps: api.apps, clock: systemClock }, app.app_id)).map((key) => [
      key.prefix,
      key.status,
    ]);
    expect(statuses).toEqual([
      [app.key_prefix, "expired"],
      [rotated.key.prefix, "active"],
    ]);
  });

  it("defaults the grace to 24 hours and refuses more than 7 days", async () => {
    const app = await newApp();
    const rotated = await rotate(app.app_id);
    const [old] = rotated.expiring;
    expect(Date.parse(old?.expires_at ?? "") - Date.parse(rotated.key.created_at)).toBe(24 * 3600 * 1000);

    const other = await newApp();
    await expect(rotate(other.app_id, MAX_GRACE_SECONDS + 1)).rejects.toMatchObject({ code: "grace_out_of_range" });
    const longest = await rotate(other.app_id, MAX_GRACE_SECONDS);
    expect(Date.parse(longest.expiring[0]?.expires_at ?? "") - Date.parse(longest.key.created_at)).toBe(
      MAX_GRACE_SECONDS * 1000,
    );
  });

  it("refuses a third live key, and allows one again once a key is revoked or expired", async () => {
    const at = controlClock();
    const app = await newApp();
    const second = await rotate(app.app_id, 600);
    const refused = rotate(app.app_id);
    await expect(refused).rejects.toBeInstanceOf(RefusedError);
    await expect(refused).rejects.toMatchObject({ code: "too_many_live_keys" });

    await revokeKeys(
      { apps: api.apps, clock: systemClock },
      { appId: app.app_id, keys: { prefix: second.key.prefix } },
    );
    const third = await rotate(app.app_id, 600);
    expect(third.expiring.map((key) => key.prefix)).toEqual([app.key_prefix]);
    await expect(rotate(app.app_id)).rejects.toMatchObject({ code: "too_many_live_keys" });

    at(601);
    const fourth = await rotate(app.app_id);
    expect(fourth.expiring.map((key) => key.prefix)).toEqual([third.key.prefix]);
  });

  it("lets only one of two simultaneous rotations through", async () => {
    const app = await newApp();
    const results = await Promise.allSettled([rotate(app.app_id), rotate(app.app_id)]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((result) => result.status === "rejected");
    expect(rejected?.reason).toMatchObject({ code: "too_many_live_keys" });
    const now = new Date().toISOString();
    const live = (await api.apps.listKeys(app.app_id)).filter((key) => isLiveKey(key, now));
    expect(live).toHaveLength(2);
  });
});

describe("revocation", () => {
  it("refuses a revoked key at once when no decision about it is cached", async () => {
    const app = await newApp();
    const result = await revokeKeys(
      { apps: api.apps, clock: systemClock },
      { appId: app.app_id, keys: { prefix: app.key_prefix } },
    );
    expect(result.revoked).toEqual([expect.objectContaining({ prefix: app.key_prefix, status: "revoked" })]);
    expectProblem(await probe(api, app.api_key), 401, "invalid_api_key");
  });

  it(`lets a key whose decision is cached pass for at most ${CACHE} s after revocation`, async () => {
    const at = controlClock();
    const app = await newApp();
    expect((await probe(api, app.api_key)).status).toBe(404);
    await revokeKeys({ apps: api.apps, clock: systemClock }, { appId: app.app_id, keys: "all" });
    at(CACHE - 1);
    expect((await probe(api, app.api_key)).status).toBe(404);
    at(CACHE);
    expectProblem(await probe(api, app.api_key), 401, "invalid_api_key");
  });

  it("revokes every live key with all, and answers key_not_found for a prefix it does not have", async () => {
    const app = await newApp();
    const rotated = await rotate(app.app_id);
    const result = await revokeKeys({ apps: api.apps, clock: systemClock }, { appId: app.app_id, keys: "all" });
    expect(result.revoked.map((key) => key.prefix).sort()).toEqual([app.key_prefix, rotated.key.prefix].sort());
    for (const key of [app.api_key, rotated.api_key]) expect(code(await probe(api, key))).toBe("invalid_api_key");
    await expect(
      revokeKeys({ apps: api.apps, clock: systemClock }, { appId: app.app_id, keys: { prefix: app.key_prefix } }),
    ).rejects.toMatchObject({ name: "NotFoundError", code: "key_not_found" });
    // With no live key left, a rotation is how the app gets one again.
    const fresh = await rotate(app.app_id);
    expect(fresh.expiring).toEqual([]);
    expect((await probe(api, fresh.api_key)).status).toBe(404);
  });
});

describe("environments and app status", () => {
  it("refuses a key of the other environment", async () => {
    const production = await api.newApp("production");
    issued.push(production.api_key, production.webhook_secret);
    expectProblem(await probe(api, production.api_key), 401, "invalid_api_key");
  });

  it("answers 403 app_disabled for a disabled app's keys, the rotated one included, until enabled", async () => {
    const at = controlClock();
    const app = await newApp();
    const disabled = await setAppStatus(
      { apps: api.apps, clock: systemClock },
      { appId: app.app_id, status: "disabled" },
    );
    expect(disabled.status).toBe("disabled");
    expectProblem(await probe(api, app.api_key), 403, "app_disabled");

    const rotated = await rotate(app.app_id);
    expectProblem(await probe(api, rotated.api_key), 403, "app_disabled");

    await setAppStatus({ apps: api.apps, clock: systemClock }, { appId: app.app_id, status: "active" });
    at(CACHE + 1);
    expect((await probe(api, app.api_key)).status).toBe(404);
    expect((await probe(api, rotated.api_key)).status).toBe(404);
  });

  it("never leaves a live key with another status than its app's when disable and rotate race", async () => {
    for (let round = 0; round < 4; round++) {
      const app = await newApp();
      const [, rotated] = await Promise.allSettled([
        setAppStatus({ apps: api.apps, clock: systemClock }, { appId: app.app_id, status: "disabled" }),
        rotate(app.app_id),
      ]);
      expect(rotated.status).toBe("fulfilled");
      const stored = await api.apps.getApp(app.app_id);
      expect(stored?.status).toBe("disabled");
      const now = new Date().toISOString();
      const keys = (await api.scan(api.tables.apps)) as unknown as KeyItem[];
      const live = keys.filter((item) => item.kind === "key" && item.key_app_id === app.app_id && isLiveKey(item, now));
      expect(live).toHaveLength(2);
      expect(live.map((key) => key.app_status)).toEqual(["disabled", "disabled"]);
    }
  });
});

describe("storage", () => {
  it("holds no API key and no webhook secret in plain text in any table", async () => {
    await expectNoPlainSecrets(api, issued);
  });
});
