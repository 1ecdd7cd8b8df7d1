import { describe, expect, it } from "vitest";
import type { Destinations } from "#shared/domain/environments";
import { InvalidInputError, NotFoundError, RefusedError } from "#shared/domain/errors";
import {
  checkWebhookUrl,
  PREVIOUS_SECRET_SECONDS,
  removeWebhookDestination,
  rotateWebhookSecret,
  setWebhookDestination,
  signingSecrets,
} from "#shared/use-cases/webhooks/destination";
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

function outcome(url: string, destinations: Destinations): string {
  try {
    return checkWebhookUrl(url, destinations);
  } catch (error) {
    if (error instanceof RefusedError || error instanceof InvalidInputError) return error.code;
    throw error;
  }
}

const REFUSED = "webhook_url_not_allowed";

describe("checkWebhookUrl", () => {
  it.each([
    // url; the local runtime playing sandbox (loopback allowed); every deployed stack (public only)
    ["https://hooks.example.com/v1?x=1", "https://hooks.example.com/v1?x=1", "https://hooks.example.com/v1?x=1"],
    ["https://Hooks.Example.COM", "https://hooks.example.com/", "https://hooks.example.com/"],
    ["https://93.184.215.14:8443/hook", "https://93.184.215.14:8443/hook", "https://93.184.215.14:8443/hook"],
    ["https://[2606:4700::1111]/hook", "https://[2606:4700::1111]/hook", "https://[2606:4700::1111]/hook"],
    ["https://localhost/hook", "https://localhost/hook", REFUSED],
    ["https://127.0.0.1/hook", "https://127.0.0.1/hook", REFUSED],
    ["https://[::1]/hook", "https://[::1]/hook", REFUSED],
    ["http://localhost:3000/hook", "http://localhost:3000/hook", REFUSED],
    ["http://127.0.0.1:4000/hook", "http://127.0.0.1:4000/hook", REFUSED],
    ["http://[::1]:4000/hook", "http://[::1]:4000/hook", REFUSED],
    ["https://10.1.2.3/hook", REFUSED, REFUSED],
    ["https://192.168.0.10/hook", REFUSED, REFUSED],
    ["https://169.254.169.254/latest", REFUSED, REFUSED],
    ["https://[fd00::1]/hook", REFUSED, REFUSED],
    ["http://hooks.example.com/hook", REFUSED, REFUSED],
    ["http://10.0.0.1/hook", REFUSED, REFUSED],
    ["ftp://hooks.example.com/hook", REFUSED, REFUSED],
    ["https://user:secret@hooks.example.com/", REFUSED, REFUSED],
    ["http://user@localhost/", REFUSED, REFUSED],
    ["hooks.example.com/hook", "invalid_input", "invalid_input"],
    ["not a url", "invalid_input", "invalid_input"],
    [`https://hooks.example.com/${"a".repeat(2048)}`, "invalid_input", "invalid_input"],
  ])("%s: local sandbox %s, deployed %s", (url, loopbackToo, publicOnly) => {
    expect(outcome(url, "public-or-loopback")).toBe(loopbackToo);
    expect(outcome(url, "public")).toBe(publicOnly);
  });

  // Every form an inward address can be written in; the URL parser rewrites some first
  // (`[::ffff:10.0.0.1]` -> `[::ffff:a00:1]`, `0x7f.1` -> `127.0.0.1`).
  it.each([
    ["IPv4-mapped loopback, hex", "https://[::ffff:7f00:1]/"],
    ["IPv4-mapped metadata, hex", "https://[::ffff:a9fe:a9fe]/latest/meta-data"],
    ["IPv4-mapped private, dotted", "https://[::ffff:10.0.0.1]/"],
    ["IPv4-translated (RFC 6145)", "https://[::ffff:0:7f00:1]/"],
    ["IPv4-compatible loopback", "https://[::127.0.0.1]/"],
    ["IPv4-compatible metadata", "https://[::a9fe:a9fe]/"],
    ["NAT64 of the metadata address", "https://[64:ff9b::a9fe:a9fe]/"],
    ["NAT64 of a public address", "https://[64:ff9b::808:808]/"],
    ["local-use NAT64 (RFC 8215)", "https://[64:ff9b:1::a00:1]/"],
    ["6to4 of loopback", "https://[2002:7f00:1::]/"],
    ["6to4 of a public address", "https://[2002:808:808::1]/"],
    ["Teredo", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/"],
    ["IPv6 unspecified", "https://[::]/"],
    ["IPv6 link-local", "https://[fe80::1]/"],
    ["IPv6 site-local (deprecated)", "https://[fec0::1]/"],
    ["IPv6 multicast", "https://[ff02::1]/"],
    ["IPv6 discard-only", "https://[100::1]/"],
    ["IPv6 documentation", "https://[2001:db8::1]/"],
    ["IPv6 ORCHIDv2", "https://[2001:20::1]/"],
    ["IPv6 benchmarking", "https://[2001:2::1]/"],
    ["IPv4 this network", "https://0.0.0.0/"],
    ["IPv4 IETF protocol assignments", "https://192.0.0.8/"],
    ["IPv4 documentation", "https://203.0.113.10/"],
    ["IPv4 benchmarking", "https://198.18.0.1/"],
    ["IPv4 shared address space", "https://100.64.0.1/"],
    ["IPv4 6to4 relay anycast", "https://192.88.99.1/"],
    ["IPv4 multicast", "https://224.0.0.1/"],
    ["IPv4 reserved", "https://240.0.0.1/"],
    ["IPv4 broadcast", "https://255.255.255.255/"],
    ["IPv4 private, short", "https://10.1/"],
    ["IPv4 private, decimal", "https://167772161/"],
  ])("refuses %s (%s) everywhere", (_form, url) => {
    expect(outcome(url, "public")).toBe(REFUSED);
    expect(outcome(url, "public-or-loopback")).toBe(REFUSED);
  });

  it.each([
    ["decimal", "https://2130706433/"],
    ["hex and short", "https://0x7f.1/"],
    ["octal", "https://0177.0.0.1/"],
  ])("reads loopback written in %s form as loopback (%s): refused when deployed", (_form, url) => {
    expect(outcome(url, "public")).toBe(REFUSED);
    expect(outcome(url, "public-or-loopback")).toBe("https://127.0.0.1/");
  });

  it("accepts a URL of exactly 2048 characters", () => {
    const base = "https://hooks.example.com/";
    const url = base + "a".repeat(2048 - base.length);

    expect(checkWebhookUrl(url, "public")).toBe(url);
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
  const destinations: Destinations = "public";
  return { store, sealer, clock, deps: { apps: store, sealer, clock, destinations } };
}

describe("setWebhookDestination", () => {
  it("stores the URL in its normalized form, checked under the runtime's rule", async () => {
    const { store, deps } = setup(anApp({ environment: "production" }));

    const result = await setWebhookDestination(deps, { appId: appId(1), url: "https://New.Example.com" });

    expect(result).toEqual({ app_id: appId(1), webhook_url: "https://new.example.com/" });
    expect(store.app(appId(1))).toMatchObject({ webhook_url: "https://new.example.com/", updated_at: T0 });
  });

  it("refuses a URL the rule does not allow, changing nothing", async () => {
    const { store, deps } = setup(anApp({ environment: "production" }));

    const error = await setWebhookDestination(deps, { appId: appId(1), url: "http://localhost:3000/" }).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({ code: "webhook_url_not_allowed" });
    expect(store.app(appId(1))).toEqual(anApp({ environment: "production" }));
  });

  it("allows that URL where loopback is allowed (the local runtime playing sandbox)", async () => {
    const { deps } = setup(anApp({ environment: "sandbox" }));

    expect(
      await setWebhookDestination(
        { ...deps, destinations: "public-or-loopback" },
        { appId: appId(1), url: "http://localhost:3000/" },
      ),
    ).toEqual({
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

describe("removeWebhookDestination", () => {
  it("removes the URL, so events are kept and not sent, and refuses an unknown app", async () => {
    const { store, deps } = setup(anApp({ webhook_url: "https://hooks.example.com/" }));

    expect(await removeWebhookDestination(deps, { appId: appId(1) })).toEqual({ app_id: appId(1), webhook_url: null });
    expect(store.app(appId(1))?.webhook_url).toBeUndefined();
    expect(store.app(appId(1))?.updated_at).toBe(T0);
    await expect(removeWebhookDestination(deps, { appId: appId(9) })).rejects.toMatchObject({ code: "app_not_found" });
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
