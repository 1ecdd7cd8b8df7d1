import { describe, expect, it } from "vitest";
import { type AppItem, keyIdOf } from "#shared/domain/apps";
import { hashApiKey } from "#shared/domain/credentials";
import {
  DEFAULT_GRACE_SECONDS,
  keyStatus,
  listAppKeys,
  MAX_GRACE_SECONDS,
  renameKey,
  revokeKeys,
  rotateKey,
} from "#shared/use-cases/accounts/keys";
import { authorize } from "#shared/use-cases/public/authorize";
import { anApp, appId, InMemoryAppStore, RecordingLog } from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const IN_1H = "2026-11-22T13:00:00Z";
const IN_24H = "2026-11-23T12:00:00Z";

function setup(app: AppItem = anApp()) {
  const apps = new InMemoryAppStore().put(app);
  const clock = new FixedClock(T0);
  const allowed = async (apiKey: string) =>
    (await authorize({ apps, clock, environment: app.environment, log: new RecordingLog() }, apiKey)).outcome;
  return { apps, clock, allowed, deps: { apps, clock } };
}

/** Another caller's change to the key set, as the store would make it: a new key, the version one up. */
function concurrentKey(apps: InMemoryAppStore) {
  return () => {
    apps.issueKey(appId(1));
    const stored = apps.apps.get(appId(1));
    if (stored) stored.key_version += 1;
  };
}

describe("rotateKey", () => {
  it("issues a new key and gives the live one 24 h of grace by default", async () => {
    const { apps, deps } = setup();
    const old = apps.issueKey(appId(1)).key;

    const rotated = await rotateKey(deps, { appId: appId(1) });

    expect(DEFAULT_GRACE_SECONDS).toBe(86_400);
    expect(rotated).toEqual({
      app_id: appId(1),
      api_key: expect.stringMatching(/^vk_sandbox_[A-Za-z0-9_-]{43}$/),
      key: {
        key_id: keyIdOf({ key_hash: hashApiKey(rotated.api_key) }),
        prefix: rotated.api_key.slice(0, 19),
        created_at: T0,
        expires_at: null,
        name: null,
        revoked_at: null,
        last_used_at: null,
        status: "active",
      },
      expiring: [
        {
          key_id: keyIdOf(old),
          prefix: old.prefix,
          created_at: T0,
          expires_at: IN_24H,
          name: null,
          revoked_at: null,
          last_used_at: null,
          status: "expiring",
        },
      ],
    });
    expect(apps.key(old.key_hash).expires_at).toBe(IN_24H);
    const app = apps.app(appId(1));
    expect(app.key_hashes).toHaveLength(2);
    expect(app.key_hashes[0]).toBe(old.key_hash);
    expect(apps.key(app.key_hashes[1] ?? "")).toMatchObject({
      key_app_id: appId(1),
      environment: "sandbox",
      app_status: "active",
      prefix: rotated.key.prefix,
    });
    expect(app.key_version).toBe(2);
  });

  it("lets both keys pass during the grace period, and only the new one after it", async () => {
    const { apps, clock, allowed, deps } = setup();
    const old = apps.issueKey(appId(1));
    const rotated = await rotateKey(deps, { appId: appId(1), graceSeconds: 3600 });

    expect([await allowed(old.apiKey), await allowed(rotated.api_key)]).toEqual(["allow", "allow"]);
    clock.set(IN_1H);
    expect([await allowed(old.apiKey), await allowed(rotated.api_key)]).toEqual(["unauthorized", "allow"]);
  });

  it.each([0, 1, MAX_GRACE_SECONDS])("accepts a grace of %i s", async (graceSeconds) => {
    const { apps, deps } = setup();
    apps.issueKey(appId(1));

    const rotated = await rotateKey(deps, { appId: appId(1), graceSeconds });

    expect(rotated.expiring[0]?.expires_at).toBe(
      new Date(Date.parse(T0) + graceSeconds * 1000).toISOString().replace(".000Z", "Z"),
    );
  });

  it.each([-1, 1.5, MAX_GRACE_SECONDS + 1, Number.NaN])(
    "refuses a grace of %d s with grace_out_of_range, before reading the app",
    async (graceSeconds) => {
      const { apps, deps } = setup();
      const before = apps.app(appId(1));

      const error = await rotateKey(deps, { appId: appId(1), graceSeconds }).catch((e: unknown) => e);

      expect(error).toMatchObject({ code: "grace_out_of_range" });
      expect(apps.writes).toEqual([]);
      expect(apps.app(appId(1))).toEqual(before);
    },
  );

  it("with no grace, the old key expires at once and leaves the live set", async () => {
    const { apps, deps } = setup();
    const old = apps.issueKey(appId(1)).key;

    const rotated = await rotateKey(deps, { appId: appId(1), graceSeconds: 0 });

    expect(rotated.expiring).toEqual([
      expect.objectContaining({ prefix: old.prefix, expires_at: T0, status: "expired" }),
    ]);
    expect(apps.app(appId(1)).key_hashes).not.toContain(old.key_hash);
    expect(apps.app(appId(1)).key_hashes).toHaveLength(1);
  });

  it("refuses a third live key with too_many_live_keys, writing nothing", async () => {
    const { apps, deps } = setup();
    apps.issueKey(appId(1));
    apps.issueKey(appId(1), { expires_at: IN_1H });
    const before = apps.app(appId(1));

    const error = await rotateKey(deps, { appId: appId(1) }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: "too_many_live_keys" });
    expect(apps.writes).toEqual([]);
    expect(apps.app(appId(1))).toEqual(before);
    expect(apps.keys.size).toBe(2);
  });

  it("does not count a key that has expired since the key set was written", async () => {
    const { apps, deps } = setup();
    const expired = apps.issueKey(appId(1), { expires_at: "2026-11-22T11:00:00Z" }).key;
    const live = apps.issueKey(appId(1)).key;

    const rotated = await rotateKey(deps, { appId: appId(1) });

    expect(rotated.expiring.map((key) => key.prefix)).toEqual([live.prefix]);
    expect(apps.app(appId(1)).key_hashes).not.toContain(expired.key_hash);
    expect(apps.key(expired.key_hash).expires_at).toBe("2026-11-22T11:00:00Z");
  });

  it("keeps an earlier expiry: a key that expires within the grace is not given more time", async () => {
    const { apps, deps } = setup();
    const expiring = apps.issueKey(appId(1), { expires_at: IN_1H }).key;

    const rotated = await rotateKey(deps, { appId: appId(1) });

    expect(rotated.expiring).toEqual([expect.objectContaining({ prefix: expiring.prefix, expires_at: IN_1H })]);
    expect(apps.key(expiring.key_hash).expires_at).toBe(IN_1H);
  });

  it("shortens a later expiry to the grace", async () => {
    const { apps, deps } = setup();
    const expiring = apps.issueKey(appId(1), { expires_at: IN_24H }).key;

    await rotateKey(deps, { appId: appId(1), graceSeconds: 3600 });

    expect(apps.key(expiring.key_hash).expires_at).toBe(IN_1H);
  });

  it("gives a disabled app's new key the disabled status, so it is denied", async () => {
    const { apps, allowed, deps } = setup(anApp({ status: "disabled" }));
    apps.issueKey(appId(1));

    const rotated = await rotateKey(deps, { appId: appId(1) });

    expect(await allowed(rotated.api_key)).toBe("deny");
  });

  it("decides again on what is stored when another rotation got there first", async () => {
    const { apps, deps } = setup();
    apps.issueKey(appId(1));
    apps.beforeNextWrite(concurrentKey(apps));

    const error = await rotateKey(deps, { appId: appId(1) }).catch((e: unknown) => e);

    // The retry sees the other rotation's key: now a third would be too many.
    expect(error).toMatchObject({ code: "too_many_live_keys" });
    expect(apps.writes).toEqual(["addKey"]);
    expect(apps.keys.size).toBe(2);
  });

  it("gives the new key the status the app has when a disable raced the rotation", async () => {
    const { apps, allowed, deps } = setup();
    apps.issueKey(appId(1));
    apps.beforeNextWrite(() => {
      const stored = apps.apps.get(appId(1));
      if (stored) stored.status = "disabled";
    });

    const rotated = await rotateKey(deps, { appId: appId(1) });

    expect(apps.writes).toEqual(["addKey", "addKey"]);
    expect(await allowed(rotated.api_key)).toBe("deny");
  });

  it("refuses an unknown app with app_not_found", async () => {
    const { deps } = setup();

    await expect(rotateKey(deps, { appId: appId(9) })).rejects.toMatchObject({ code: "app_not_found" });
  });
});

describe("revokeKeys", () => {
  it("revokes the live key with the prefix, at once, and keeps the other", async () => {
    const { apps, allowed, deps } = setup();
    const a = apps.issueKey(appId(1));
    const b = apps.issueKey(appId(1));

    const result = await revokeKeys(deps, { appId: appId(1), keys: { prefix: a.key.prefix } });

    expect(result).toEqual({
      app_id: appId(1),
      revoked: [
        {
          key_id: keyIdOf(a.key),
          prefix: a.key.prefix,
          created_at: T0,
          expires_at: null,
          name: null,
          revoked_at: T0,
          last_used_at: null,
          status: "revoked",
        },
      ],
    });
    expect(apps.key(a.key.key_hash).revoked_at).toBe(T0);
    expect(apps.app(appId(1))).toMatchObject({ key_hashes: [b.key.key_hash], key_version: 2 });
    expect([await allowed(a.apiKey), await allowed(b.apiKey)]).toEqual(["unauthorized", "allow"]);
  });

  it("revokes every live key with all", async () => {
    const { apps, deps } = setup();
    const a = apps.issueKey(appId(1));
    const b = apps.issueKey(appId(1), { expires_at: IN_1H });

    const result = await revokeKeys(deps, { appId: appId(1), keys: "all" });

    expect(result.revoked.map((key) => key.prefix).sort()).toEqual([a.key.prefix, b.key.prefix].sort());
    expect(result.revoked.every((key) => key.status === "revoked" && key.revoked_at === T0)).toBe(true);
    expect(apps.app(appId(1)).key_hashes).toEqual([]);
  });

  it("with all and no live key, revokes nothing and writes nothing", async () => {
    const { apps, deps } = setup();
    apps.issueKey(appId(1), { revoked_at: "2026-11-21T00:00:00Z" });

    expect(await revokeKeys(deps, { appId: appId(1), keys: "all" })).toEqual({ app_id: appId(1), revoked: [] });
    expect(apps.writes).toEqual([]);
  });

  it("refuses a prefix no live key has with key_not_found", async () => {
    const { apps, deps } = setup();
    apps.issueKey(appId(1));
    const revoked = apps.issueKey(appId(1), { revoked_at: "2026-11-21T00:00:00Z" }).key;
    const expired = apps.issueKey(appId(1), { expires_at: "2026-11-22T11:00:00Z" }).key;

    for (const prefix of ["vk_sandbox_nothere", revoked.prefix, expired.prefix]) {
      const error = await revokeKeys(deps, { appId: appId(1), keys: { prefix } }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "key_not_found" });
    }
    expect(apps.writes).toEqual([]);
  });

  it("refuses a prefix two live keys share with ambiguous_key_prefix", async () => {
    const { apps, deps } = setup();
    apps.issueKey(appId(1), { prefix: "vk_sandbox_abcdefgh" });
    apps.issueKey(appId(1), { prefix: "vk_sandbox_abcdefgh" });

    const error = await revokeKeys(deps, { appId: appId(1), keys: { prefix: "vk_sandbox_abcdefgh" } }).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({ code: "ambiguous_key_prefix" });
    expect(apps.writes).toEqual([]);
  });

  it("decides again when the key set changed under it", async () => {
    const { apps, deps } = setup();
    const a = apps.issueKey(appId(1)).key;
    apps.beforeNextWrite(concurrentKey(apps));

    const result = await revokeKeys(deps, { appId: appId(1), keys: "all" });

    // The retry also revokes the key the other caller added.
    expect(apps.writes).toEqual(["revokeKeys", "revokeKeys"]);
    expect(result.revoked).toHaveLength(2);
    expect(apps.key(a.key_hash).revoked_at).toBe(T0);
    expect(apps.app(appId(1)).key_hashes).toEqual([]);
  });

  it("refuses an unknown app with app_not_found", async () => {
    const { deps } = setup();

    await expect(revokeKeys(deps, { appId: appId(9), keys: "all" })).rejects.toMatchObject({ code: "app_not_found" });
  });
});

describe("listAppKeys and keyStatus", () => {
  it("lists every key the app ever had, oldest first, with its status now", async () => {
    const { apps, clock, deps } = setup();
    apps.issueKey(appId(1), { created_at: "2026-11-01T00:00:00Z", expires_at: "2026-11-10T00:00:00Z" });
    apps.issueKey(appId(1), { created_at: "2026-11-02T00:00:00Z", revoked_at: "2026-11-03T00:00:00Z" });
    apps.issueKey(appId(1), { created_at: "2026-11-04T00:00:00Z", expires_at: IN_1H });
    apps.issueKey(appId(1), { created_at: "2026-11-05T00:00:00Z" });

    expect((await listAppKeys(deps, appId(1))).map((key) => key.status)).toEqual([
      "expired",
      "revoked",
      "expiring",
      "active",
    ]);
    clock.set(IN_1H);
    expect((await listAppKeys(deps, appId(1))).map((key) => key.status)).toEqual([
      "expired",
      "revoked",
      "expired",
      "active",
    ]);
  });

  it("calls a revoked key revoked, whatever its expiry", () => {
    const key = {
      key_hash: "x",
      kind: "key" as const,
      key_app_id: appId(1),
      environment: "sandbox" as const,
      prefix: "vk_sandbox_abcdefgh",
      app_status: "active" as const,
      created_at: T0,
      expires_at: IN_1H,
      revoked_at: T0,
    };

    expect(keyStatus(key, T0)).toBe("revoked");
  });

  it("refuses an unknown app with app_not_found", async () => {
    const { deps } = setup();

    await expect(listAppKeys(deps, appId(9))).rejects.toMatchObject({ code: "app_not_found" });
  });
});

describe("key names", () => {
  const by = { actor: { pool: "operator" as const, sub: "ops-1", username: "ops" }, requestId: "r", sourceIp: "-" };

  it("names the new key of a rotation, its surrounding spaces dropped", async () => {
    const { apps, deps } = setup();
    apps.issueKey(appId(1));

    const rotated = await rotateKey(deps, { appId: appId(1), name: "  Web servers  " });

    expect(rotated.key.name).toBe("Web servers");
    expect(rotated.expiring[0]?.name).toBeNull();
    expect(apps.key(hashApiKey(rotated.api_key)).name).toBe("Web servers");
  });

  it.each([
    ["empty", "   "],
    ["too long", "x".repeat(61)],
    ["with a control character", "web\u0007servers"],
  ])("refuses a name that is %s before anything is written", async (_what, name) => {
    const { apps, deps } = setup();

    await expect(rotateKey(deps, { appId: appId(1), name })).rejects.toMatchObject({ code: "invalid_input" });
    expect(apps.writes).toEqual([]);
  });

  it("renames a key, live or revoked, with the record of it", async () => {
    const { apps, deps } = setup();
    const revoked = apps.issueKey(appId(1), { revoked_at: T0 }).key;

    const renamed = await renameKey(deps, { appId: appId(1), keyId: keyIdOf(revoked), name: "Old servers" }, by);

    expect(renamed.key).toMatchObject({ key_id: keyIdOf(revoked), name: "Old servers", revoked_at: T0 });
    expect(apps.key(revoked.key_hash).name).toBe("Old servers");
    expect(apps.trail.records.map((record) => [record.action, record.detail?.key_id])).toEqual([
      ["key.renamed", keyIdOf(revoked)],
    ]);
  });

  it("refuses a key of another app with key_not_found, recording nothing", async () => {
    const { apps, deps } = setup();
    apps.put(anApp({ app_id: appId(2) }));
    const other = apps.issueKey(appId(2)).key;

    await expect(
      renameKey(deps, { appId: appId(1), keyId: keyIdOf(other), name: "Mine now" }, by),
    ).rejects.toMatchObject({ code: "key_not_found" });
    expect(apps.key(other.key_hash).name).toBeUndefined();
    expect(apps.trail.records).toEqual([]);
  });
});
