import { describe, expect, it } from "vitest";
import type { Environment } from "#shared/domain/environments";
import { InvalidInputError, NotFoundError, RefusedError } from "#shared/domain/errors";
import {
  checkWebhookUrl,
  PREVIOUS_SECRET_SECONDS,
  rotateWebhookSecret,
  setWebhookDestination,
  signingSecrets,
} from "#shared/use-cases/webhook-destination";
import {
  anApp,
  appId,
  InMemoryAppStore,
  PREVIOUS_WEBHOOK_SECRET,
  TaggingSealer,
  tagSealed,
  WEBHOOK_SECRET,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

function outcome(url: string, environment: Environment): string {
  try {
    return checkWebhookUrl(url, environment);
  } catch (error) {
    if (error instanceof RefusedError || error instanceof InvalidInputError) return error.code;
    throw error;
  }
}

describe("checkWebhookUrl", () => {
  it.each([
    // url, sandbox, production
    ["https://hooks.example.com/v1?x=1", "https://hooks.example.com/v1?x=1", "https://hooks.example.com/v1?x=1"],
    ["https://Hooks.Example.COM", "https://hooks.example.com/", "https://hooks.example.com/"],
    ["https://203.0.113.10:8443/hook", "https://203.0.113.10:8443/hook", "https://203.0.113.10:8443/hook"],
    ["https://localhost/hook", "https://localhost/hook", "webhook_url_not_allowed"],
    ["https://127.0.0.1/hook", "https://127.0.0.1/hook", "webhook_url_not_allowed"],
    ["https://10.1.2.3/hook", "https://10.1.2.3/hook", "webhook_url_not_allowed"],
    ["https://192.168.0.10/hook", "https://192.168.0.10/hook", "webhook_url_not_allowed"],
    ["https://169.254.169.254/latest", "https://169.254.169.254/latest", "webhook_url_not_allowed"],
    ["https://[::1]/hook", "https://[::1]/hook", "webhook_url_not_allowed"],
    ["https://[fd00::1]/hook", "https://[fd00::1]/hook", "webhook_url_not_allowed"],
    ["http://localhost:3000/hook", "http://localhost:3000/hook", "webhook_url_not_allowed"],
    ["http://127.0.0.1:4000/hook", "http://127.0.0.1:4000/hook", "webhook_url_not_allowed"],
    ["http://[::1]:4000/hook", "http://[::1]:4000/hook", "webhook_url_not_allowed"],
    ["http://hooks.example.com/hook", "webhook_url_not_allowed", "webhook_url_not_allowed"],
    ["http://10.0.0.1/hook", "webhook_url_not_allowed", "webhook_url_not_allowed"],
    ["ftp://hooks.example.com/hook", "webhook_url_not_allowed", "webhook_url_not_allowed"],
    ["https://user:secret@hooks.example.com/", "webhook_url_not_allowed", "webhook_url_not_allowed"],
    ["http://user@localhost/", "webhook_url_not_allowed", "webhook_url_not_allowed"],
    ["hooks.example.com/hook", "invalid_input", "invalid_input"],
    ["not a url", "invalid_input", "invalid_input"],
    [`https://hooks.example.com/${"a".repeat(2048)}`, "invalid_input", "invalid_input"],
  ])("%s: sandbox %s, production %s", (url, sandbox, production) => {
    expect(outcome(url, "sandbox")).toBe(sandbox);
    expect(outcome(url, "production")).toBe(production);
  });

  // The URL parser rewrites an IPv4-mapped literal to hex (`[::ffff:10.0.0.1]` -> `[::ffff:a00:1]`).
  it.each([
    "https://[::ffff:10.0.0.1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:169.254.169.254]/latest/meta-data",
  ])("refuses the IPv4-mapped private address %s in production", (url) => {
    expect(outcome(url, "production")).toBe("webhook_url_not_allowed");
  });

  it("accepts a URL of exactly 2048 characters", () => {
    const base = "https://hooks.example.com/";
    const url = base + "a".repeat(2048 - base.length);

    expect(checkWebhookUrl(url, "production")).toBe(url);
  });
});

describe("signingSecrets", () => {
  it("is the current secret alone when there was no rotation", async () => {
    expect(await signingSecrets(anApp(), new TaggingSealer(), T0)).toEqual([WEBHOOK_SECRET]);
  });

  it("is the current secret, then the previous one, while the previous one is valid", async () => {
    const app = anApp({
      previous_webhook_secret_sealed: tagSealed(PREVIOUS_WEBHOOK_SECRET),
      previous_webhook_secret_expires_at: "2026-11-22T12:00:01Z",
    });

    expect(await signingSecrets(app, new TaggingSealer(), T0)).toEqual([WEBHOOK_SECRET, PREVIOUS_WEBHOOK_SECRET]);
  });

  it("drops the previous secret from its expiry on, without opening it", async () => {
    const app = anApp({
      previous_webhook_secret_sealed: tagSealed(PREVIOUS_WEBHOOK_SECRET),
      previous_webhook_secret_expires_at: T0,
    });
    const sealer = new TaggingSealer();

    expect(await signingSecrets(app, sealer, T0)).toEqual([WEBHOOK_SECRET]);
    expect(sealer.opens).toBe(1);
  });
});

function setup(...apps: ReturnType<typeof anApp>[]) {
  const store = new InMemoryAppStore();
  for (const app of apps) store.put(app);
  const sealer = new TaggingSealer();
  const clock = new FixedClock(T0);
  return { store, sealer, clock, deps: { apps: store, sealer, clock } };
}

describe("setWebhookDestination", () => {
  it("stores the URL in its normalized form, checked for the app's environment", async () => {
    const { store, deps } = setup(anApp({ environment: "production" }));

    const result = await setWebhookDestination(deps, { appId: appId(1), url: "https://New.Example.com" });

    expect(result).toEqual({ app_id: appId(1), webhook_url: "https://new.example.com/" });
    expect(store.app(appId(1))).toMatchObject({ webhook_url: "https://new.example.com/", updated_at: T0 });
  });

  it("refuses a URL the app's environment does not allow, changing nothing", async () => {
    const { store, deps } = setup(anApp({ environment: "production" }));

    const error = await setWebhookDestination(deps, { appId: appId(1), url: "http://localhost:3000/" }).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({ code: "webhook_url_not_allowed" });
    expect(store.app(appId(1))).toEqual(anApp({ environment: "production" }));
  });

  it("allows that URL for a sandbox app", async () => {
    const { deps } = setup(anApp({ environment: "sandbox" }));

    expect(await setWebhookDestination(deps, { appId: appId(1), url: "http://localhost:3000/" })).toEqual({
      app_id: appId(1),
      webhook_url: "http://localhost:3000/",
    });
  });

  it("refuses an unknown app with app_not_found", async () => {
    const { deps } = setup();

    await expect(setWebhookDestination(deps, { appId: appId(9), url: "https://a.example/" })).rejects.toMatchObject({
      code: "app_not_found",
    });
  });
});

describe("rotateWebhookSecret", () => {
  it("seals a new secret and keeps the one it replaces signing for 24 h", async () => {
    const { store, sealer, deps } = setup(anApp());

    const rotated = await rotateWebhookSecret(deps, { appId: appId(1) });

    expect(PREVIOUS_SECRET_SECONDS).toBe(86_400);
    expect(rotated).toEqual({
      app_id: appId(1),
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      previous_secret_expires_at: "2026-11-23T12:00:00Z",
    });
    const app = store.app(appId(1));
    expect(app).toMatchObject({
      previous_webhook_secret_sealed: tagSealed(WEBHOOK_SECRET),
      previous_webhook_secret_expires_at: "2026-11-23T12:00:00Z",
      updated_at: T0,
    });
    expect(app.webhook_secret_sealed).not.toContain(rotated.webhook_secret);
    expect(await signingSecrets(app, sealer, T0)).toEqual([rotated.webhook_secret, WEBHOOK_SECRET]);
    expect(await signingSecrets(app, sealer, "2026-11-23T12:00:00Z")).toEqual([rotated.webhook_secret]);
  });

  it("a second rotation within 24 h stops the oldest secret at once", async () => {
    const { store, sealer, clock, deps } = setup(anApp());
    const first = await rotateWebhookSecret(deps, { appId: appId(1) });
    clock.advance(3600);

    const second = await rotateWebhookSecret(deps, { appId: appId(1) });

    const app = store.app(appId(1));
    expect(await signingSecrets(app, sealer, "2026-11-22T13:00:00Z")).toEqual([
      second.webhook_secret,
      first.webhook_secret,
    ]);
    expect(second.previous_secret_expires_at).toBe("2026-11-23T13:00:00Z");
  });

  it("decides again when another rotation got there first", async () => {
    const { store, deps } = setup(anApp());
    store.beforeNextWrite(() => {
      const app = store.apps.get(appId(1));
      if (app) app.webhook_secret_sealed = tagSealed(PREVIOUS_WEBHOOK_SECRET);
    });

    const rotated = await rotateWebhookSecret(deps, { appId: appId(1) });

    expect(store.writes).toEqual(["rotateWebhookSecret", "rotateWebhookSecret"]);
    // The secret kept as previous is the one the other rotation wrote, not the one first read.
    expect(store.app(appId(1))).toMatchObject({ previous_webhook_secret_sealed: tagSealed(PREVIOUS_WEBHOOK_SECRET) });
    expect(rotated.app_id).toBe(appId(1));
  });

  it("gives concurrent_change when every attempt loses the race", async () => {
    const { store, deps } = setup(anApp());
    store.staleWrites(3);

    const error = await rotateWebhookSecret(deps, { appId: appId(1) }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: "concurrent_change" });
    expect(store.writes).toHaveLength(3);
    expect(store.app(appId(1))).toEqual(anApp());
  });

  it("refuses an unknown app with app_not_found, sealing nothing", async () => {
    const { sealer, deps } = setup();

    const error = await rotateWebhookSecret(deps, { appId: appId(9) }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: "app_not_found" });
    expect(sealer.seals).toBe(0);
  });
});
