import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyIdOf } from "#shared/domain/apps";
import type { Environment } from "#shared/domain/environments";
import { isId } from "#shared/domain/ids";
import { createApp, listApps, setAppStatus, showApp, syncAppLimits } from "#shared/use-cases/accounts/apps";
import { authorize } from "#shared/use-cases/public/authorize";
import {
  anApp,
  appId,
  InMemoryAppLimits,
  InMemoryAppStore,
  RecordingLog,
  TaggingSealer,
  tagSealed,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

function setup(environment?: Environment) {
  const apps = new InMemoryAppStore();
  const sealer = new TaggingSealer();
  const clock = new FixedClock(T0);
  const limits = new InMemoryAppLimits();
  return {
    apps,
    sealer,
    clock,
    limits,
    deps: { apps, sealer, limits, clock, environment, destinations: "public" as const },
  };
}

describe("createApp", () => {
  it("creates an active app with its first key, and shows the key and the signing secret once", async () => {
    const { apps, sealer, deps } = setup("sandbox");

    const created = await createApp(deps, {
      name: "  Acme Admissions ",
      environment: "sandbox",
      webhookUrl: "https://Hooks.Example.com/v",
    });

    expect(isId("app", created.app_id)).toBe(true);
    expect(created).toEqual({
      app_id: created.app_id,
      name: "Acme Admissions",
      environment: "sandbox",
      api_key: expect.stringMatching(/^vk_sandbox_[A-Za-z0-9_-]{43}$/),
      key_prefix: created.api_key.slice(0, "vk_sandbox_".length + 8),
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      webhook_url: "https://hooks.example.com/v",
    });
    const keyHash = createHash("sha256").update(created.api_key).digest("hex");
    expect(apps.app(created.app_id)).toEqual({
      kind: "app",
      app_id: created.app_id,
      name: "Acme Admissions",
      environment: "sandbox",
      status: "active",
      webhook_url: "https://hooks.example.com/v",
      webhook_secret_sealed: tagSealed(created.webhook_secret),
      key_hashes: [keyHash],
      key_version: 1,
      created_at: T0,
      updated_at: T0,
    });
    expect(apps.key(keyHash)).toEqual({
      key_hash: keyHash,
      kind: "key",
      key_app_id: created.app_id,
      environment: "sandbox",
      prefix: created.key_prefix,
      app_status: "active",
      created_at: T0,
    });
    expect(apps.app(created.app_id).webhook_secret_sealed).not.toContain(created.webhook_secret);
    expect(sealer.seals).toBe(1);
  });

  it("gives a key that the authorizer lets through", async () => {
    const { apps, clock, deps } = setup();

    const created = await createApp(deps, { name: "Acme", environment: "production" });

    expect(
      await authorize({ apps, clock, environment: "production", log: new RecordingLog() }, created.api_key),
    ).toEqual({
      outcome: "allow",
      appId: created.app_id,
      environment: "production",
    });
  });

  it("creates an app without a webhook destination", async () => {
    const { apps, deps } = setup();

    const created = await createApp(deps, { name: "Acme", environment: "sandbox" });

    expect(created.webhook_url).toBeNull();
    expect(apps.app(created.app_id).webhook_url).toBeUndefined();
  });

  it.each(["A", "x".repeat(100), "Üniversite Öğrenci İşleri"])("accepts the name %j", async (name) => {
    const { deps } = setup();

    expect((await createApp(deps, { name, environment: "sandbox" })).name).toBe(name);
  });

  it.each([
    ["an empty name", { name: "", environment: "sandbox" }, "sandbox", "invalid_input"],
    ["a blank name", { name: "   ", environment: "sandbox" }, undefined, "invalid_input"],
    ["a name of 101 characters", { name: "x".repeat(101), environment: "sandbox" }, undefined, "invalid_input"],
    ["a name with a newline", { name: "Acme\nAdmissions", environment: "sandbox" }, undefined, "invalid_input"],
    ["a name with DEL", { name: "Acme\u007f", environment: "sandbox" }, undefined, "invalid_input"],
    [
      "an http URL to a public host",
      { name: "Acme", environment: "sandbox", webhookUrl: "http://hooks.example.com/" },
      undefined,
      "webhook_url_not_allowed",
    ],
    [
      "a loopback URL in production",
      { name: "Acme", environment: "production", webhookUrl: "https://localhost/hook" },
      "production",
      "webhook_url_not_allowed",
    ],
    [
      "a URL that is not one",
      { name: "Acme", environment: "sandbox", webhookUrl: "hooks" },
      undefined,
      "invalid_input",
    ],
    [
      "an app of another environment than the table's",
      { name: "Acme", environment: "sandbox" },
      "production",
      "environment_mismatch",
    ],
  ] as const)("refuses %s before it seals anything", async (_what, input, tableEnvironment, code) => {
    const { apps, sealer, deps } = setup(tableEnvironment);

    const error = await createApp(deps, input).catch((e: unknown) => e);

    expect(error).toMatchObject({ code });
    expect(sealer.seals).toBe(0);
    expect(apps.apps.size).toBe(0);
    expect(apps.keys.size).toBe(0);
  });
});

describe("listApps and showApp", () => {
  it("lists apps oldest first, without any secret, sealed or not", async () => {
    const { apps, deps } = setup();
    apps.put(anApp({ app_id: appId(2), name: "Later", created_at: "2026-11-05T00:00:00Z", updated_at: T0 }));
    apps.put(anApp({ webhook_url: undefined }));

    const listed = await listApps(deps);

    expect(listed).toEqual([
      {
        app_id: appId(1),
        name: "Acme Admissions",
        environment: "sandbox",
        status: "active",
        webhook_url: null,
        previous_webhook_secret_expires_at: null,
        created_at: "2026-11-01T09:00:00Z",
        updated_at: "2026-11-01T09:00:00Z",
      },
      {
        app_id: appId(2),
        name: "Later",
        environment: "sandbox",
        status: "active",
        webhook_url: "https://hooks.example.com/verifications",
        previous_webhook_secret_expires_at: null,
        created_at: "2026-11-05T00:00:00Z",
        updated_at: T0,
      },
    ]);
  });

  it("shows the previous secret's expiry only while it is ahead", async () => {
    const { apps, clock, deps } = setup();
    apps.put(
      anApp({
        previous_webhook_secret_sealed: tagSealed("whsec_old"),
        previous_webhook_secret_expires_at: "2026-11-22T13:00:00Z",
      }),
    );

    const before = await showApp(deps, appId(1));
    clock.set("2026-11-22T13:00:00Z");
    const after = await showApp(deps, appId(1));

    expect(before.previous_webhook_secret_expires_at).toBe("2026-11-22T13:00:00Z");
    expect(after.previous_webhook_secret_expires_at).toBeNull();
  });

  it("shows an app with each of its keys and their status now", async () => {
    const { apps, deps } = setup();
    apps.put(anApp());
    const active = apps.issueKey(appId(1), { created_at: "2026-11-01T09:00:00Z" }).key;
    const expiring = apps.issueKey(appId(1), {
      created_at: "2026-11-02T09:00:00Z",
      expires_at: "2026-11-23T00:00:00Z",
    }).key;
    const revoked = apps.issueKey(appId(1), {
      created_at: "2026-11-03T09:00:00Z",
      revoked_at: "2026-11-04T00:00:00Z",
    }).key;

    const shown = await showApp(deps, appId(1));

    expect(shown).toMatchObject({ app_id: appId(1), name: "Acme Admissions" });
    expect(shown).not.toHaveProperty("webhook_secret_sealed");
    expect(shown.keys).toEqual([
      {
        key_id: keyIdOf(active),
        prefix: active.prefix,
        created_at: "2026-11-01T09:00:00Z",
        expires_at: null,
        name: null,
        revoked_at: null,
        last_used_at: null,
        status: "active",
      },
      {
        key_id: keyIdOf(expiring),
        prefix: expiring.prefix,
        created_at: "2026-11-02T09:00:00Z",
        expires_at: "2026-11-23T00:00:00Z",
        name: null,
        revoked_at: null,
        last_used_at: null,
        status: "expiring",
      },
      {
        key_id: keyIdOf(revoked),
        prefix: revoked.prefix,
        name: null,
        created_at: "2026-11-03T09:00:00Z",
        expires_at: null,
        revoked_at: "2026-11-04T00:00:00Z",
        last_used_at: null,
        status: "revoked",
      },
    ]);
  });

  it("refuses to show an unknown app with app_not_found", async () => {
    const { deps } = setup();

    await expect(showApp(deps, appId(9))).rejects.toMatchObject({ code: "app_not_found" });
  });
});

describe("setAppStatus", () => {
  it("disables an app and its live keys together: its keys are then denied", async () => {
    const { apps, clock, deps } = setup();
    apps.put(anApp());
    const { apiKey } = apps.issueKey(appId(1));

    const view = await setAppStatus(deps, { appId: appId(1), status: "disabled" });

    expect(view).toMatchObject({ app_id: appId(1), status: "disabled", updated_at: T0 });
    expect(apps.app(appId(1)).status).toBe("disabled");
    expect(await authorize({ apps, clock, environment: "sandbox", log: new RecordingLog() }, apiKey)).toEqual({
      outcome: "deny",
      appId: appId(1),
    });
  });

  it("enables a disabled app again", async () => {
    const { apps, deps } = setup();
    apps.put(anApp({ status: "disabled" }));

    expect(await setAppStatus(deps, { appId: appId(1), status: "active" })).toMatchObject({ status: "active" });
  });

  it("refuses an unknown app with app_not_found", async () => {
    const { deps } = setup();

    await expect(setAppStatus(deps, { appId: appId(9), status: "disabled" })).rejects.toMatchObject({
      code: "app_not_found",
    });
  });

  it("runs again when a key change raced it", async () => {
    const { apps, deps } = setup();
    apps.put(anApp());
    apps.staleWrites(2);

    const view = await setAppStatus(deps, { appId: appId(1), status: "disabled" });

    expect(view.status).toBe("disabled");
    expect(apps.writes).toEqual(["setStatus", "setStatus", "setStatus"]);
  });

  it("gives concurrent_change after three lost races, leaving the app as it was", async () => {
    const { apps, deps } = setup();
    apps.put(anApp());
    apps.staleWrites(3);

    await expect(setAppStatus(deps, { appId: appId(1), status: "disabled" })).rejects.toMatchObject({
      code: "concurrent_change",
    });
    expect(apps.app(appId(1)).status).toBe("active");
  });
});

describe("each app's request bucket", () => {
  it("is given to a new app once the app is stored, before its key is shown, so its first request is served", async () => {
    const { apps, limits, deps } = setup("sandbox");
    const created = await createApp(deps, { name: "Bucketed", environment: "sandbox" });
    expect(limits.registrations).toEqual([created.app_id]);
    expect(apps.app(created.app_id)).toBeDefined();
  });

  it("shows no key when it cannot be given, and a sync gives the stored app its bucket", async () => {
    const { apps, limits, deps } = setup("sandbox");
    limits.failNext = new Error("TooManyRequestsException");
    await expect(createApp(deps, { name: "Unlucky", environment: "sandbox" })).rejects.toThrow(
      "TooManyRequestsException",
    );
    const [stored] = await apps.listApps();
    expect(await syncAppLimits(deps)).toEqual({ registered: [stored?.app_id], unchanged: 0 });
  });

  it("is given by a sync to every app without one, and a second sync gives none", async () => {
    const { apps, limits, deps } = setup("sandbox");
    const before = [anApp({ app_id: appId(1) }), anApp({ app_id: appId(2) })];
    for (const app of before) apps.put(app);
    const created = await createApp(deps, { name: "New", environment: "sandbox" });

    const first = await syncAppLimits(deps);
    expect(first.registered.sort()).toEqual([appId(1), appId(2)].sort());
    expect(first.unchanged).toBe(1);
    expect([...limits.apps].sort()).toEqual([appId(1), appId(2), created.app_id].sort());

    expect(await syncAppLimits(deps)).toEqual({ registered: [], unchanged: 3 });
  });
});
