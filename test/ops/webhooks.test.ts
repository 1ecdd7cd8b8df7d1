/** Webhook destinations: the URL rule, and secret rotation with both signatures for 24 hours. */

import { rmSync } from "node:fs";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { KMS_SEALED, RETIRED_SEALED } from "#shared/adapters/kms-sealer";
import { SecretBox } from "#shared/adapters/secret-box";
import { systemClock } from "#shared/adapters/system-clock";
import { destinationsFor } from "#shared/domain/environments";
import { InvalidInputError, RefusedError } from "#shared/domain/errors";
import { isoSeconds } from "#shared/domain/time";
import { signWebhook } from "#shared/domain/webhook-signature";
import type { Sealer } from "#shared/ports/sealer";
import { createApp } from "#shared/use-cases/accounts/apps";
import {
  checkWebhookUrl,
  rotateWebhookSecret,
  setWebhookDestination,
  signingSecrets,
} from "#shared/use-cases/webhooks/destination";
import { startApi, type TestApi } from "../support/api.ts";
import { expectNoPlainSecrets, opsInProcess, runtimeFileFor } from "./support.ts";

let api: TestApi;
let sealer: Sealer;
const issued: string[] = [];

beforeAll(async () => {
  api = await startApi();
  sealer = api.sealer;
});
afterAll(() => api.stop());
afterEach(() => {
  vi.useRealTimers();
});

/** What creating and changing apps needs, against this file's API. */
const appDeps = () => ({
  apps: api.apps,
  sealer,
  limits: api.limits,
  clock: systemClock,
  destinations: destinationsFor("sandbox", "local"),
});

describe("the webhook URL rule", () => {
  it.each([
    ["https://hooks.example.com/verification", "public-or-loopback"],
    ["https://hooks.example.com/verification", "public"],
    ["http://127.0.0.1:4000/hook", "public-or-loopback"],
    ["http://localhost:4000/hook", "public-or-loopback"],
    ["http://[::1]:4000/hook", "public-or-loopback"],
  ] as const)("accepts %s under %s", (url, destinations) => {
    expect(checkWebhookUrl(url, destinations)).toBe(url);
  });

  it.each([
    ["http://hooks.example.com/verification", "public-or-loopback"],
    ["http://127.0.0.1:4000/hook", "public"],
    ["https://localhost/hook", "public"],
    ["https://10.1.2.3/hook", "public-or-loopback"],
    ["ftp://hooks.example.com/verification", "public-or-loopback"],
    ["https://user:password@hooks.example.com/", "public-or-loopback"],
  ] as const)("refuses %s under %s", (url, destinations) => {
    expect(() => checkWebhookUrl(url, destinations)).toThrow(RefusedError);
  });

  it("calls something that is not a URL invalid input", () => {
    expect(() => checkWebhookUrl("hooks.example.com/verification", "public")).toThrow(InvalidInputError);
  });

  it("is applied when an app is created and when its destination is set", async () => {
    const deps = appDeps();
    await expect(
      createApp(deps, { name: "Plain http", environment: "sandbox", webhookUrl: "http://hooks.example.com/" }),
    ).rejects.toMatchObject({ code: "webhook_url_not_allowed" });
    const app = await createApp(deps, { name: "Hooked", environment: "sandbox" });
    issued.push(app.api_key, app.webhook_secret);
    await expect(
      setWebhookDestination(deps, { appId: app.app_id, url: "http://hooks.example.com/" }),
    ).rejects.toMatchObject({ code: "webhook_url_not_allowed" });
    const set = await setWebhookDestination(deps, { appId: app.app_id, url: "https://hooks.example.com/v1" });
    expect(set.webhook_url).toBe("https://hooks.example.com/v1");
    expect((await api.apps.getApp(app.app_id))?.webhook_url).toBe("https://hooks.example.com/v1");
  });
});

describe("rotating the signing secret", () => {
  it("signs with the new and the previous secret for 24 hours, then with the new one only", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const deps = appDeps();
    const app = await createApp(deps, { name: "Rotating", environment: "sandbox" });
    const stored = async () => {
      const item = await api.apps.getApp(app.app_id);
      if (!item) throw new Error("the app is gone");
      return item;
    };
    expect(await signingSecrets(await stored(), sealer, isoSeconds(systemClock.now()))).toEqual([app.webhook_secret]);

    const rotated = await rotateWebhookSecret(deps, { appId: app.app_id });
    issued.push(app.api_key, app.webhook_secret, rotated.webhook_secret);
    expect(rotated.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(rotated.previous_secret_expires_at) - start).toBeGreaterThan(24 * 3600 * 1000 - 1000);
    const during = await signingSecrets(await stored(), sealer, isoSeconds(systemClock.now()));
    expect(during).toEqual([rotated.webhook_secret, app.webhook_secret]);

    // A receiver that still knows only the old secret verifies the event, as does an updated one.
    const body = JSON.stringify({ id: "evt_01ARZ3NDEKTSV4RRFFQ69G5FAV", type: "verification.completed" });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      "webhook-id": "evt_01ARZ3NDEKTSV4RRFFQ69G5FAV",
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(during, "evt_01ARZ3NDEKTSV4RRFFQ69G5FAV", timestamp, body),
    };
    for (const secret of [app.webhook_secret, rotated.webhook_secret]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }

    vi.setSystemTime(Date.parse(rotated.previous_secret_expires_at));
    expect(await signingSecrets(await stored(), sealer, isoSeconds(systemClock.now()))).toEqual([
      rotated.webhook_secret,
    ]);
  });

  it("keeps only the latest previous secret when rotated twice within 24 hours", async () => {
    const deps = appDeps();
    const app = await createApp(deps, { name: "Twice", environment: "sandbox" });
    const first = await rotateWebhookSecret(deps, { appId: app.app_id });
    const second = await rotateWebhookSecret(deps, { appId: app.app_id });
    issued.push(app.api_key, app.webhook_secret, first.webhook_secret, second.webhook_secret);
    const item = await api.apps.getApp(app.app_id);
    expect(item && (await signingSecrets(item, sealer, isoSeconds(systemClock.now())))).toEqual([
      second.webhook_secret,
      first.webhook_secret,
    ]);
  });

  it("stores every secret sealed: no table holds one in plain text", async () => {
    await expectNoPlainSecrets(api, issued);
  });
});

describe("npm run ops -- webhooks reseal", () => {
  it("moves secrets sealed with the retired key to the KMS key, for their own app, once", async () => {
    const deps = appDeps();
    const app = await createApp(deps, { name: "Sealed before KMS", environment: "sandbox" });
    issued.push(app.api_key, app.webhook_secret);
    // As an app created before KMS holds it: sealed with the local key material, the retired key.
    const retired = new SecretBox(process.env.SECRETS_KEY ?? "");
    const before = await api.apps.getApp(app.app_id);
    if (!before) throw new Error("the app is gone");
    await api.apps.resealSecrets(before, { current: retired.seal(app.webhook_secret) }, isoSeconds(new Date()));
    expect((await api.apps.getApp(app.app_id))?.webhook_secret_sealed.startsWith(RETIRED_SEALED)).toBe(true);
    const dataDir = runtimeFileFor(api, inject("engines").dynamoEndpoint);

    const run = await opsInProcess(["webhooks", "reseal", "--json"], dataDir);

    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout).resealed).toBeGreaterThanOrEqual(1);
    const after = await api.apps.getApp(app.app_id);
    expect(after?.webhook_secret_sealed.startsWith(KMS_SEALED)).toBe(true);
    expect(after && (await signingSecrets(after, sealer, isoSeconds(new Date())))).toEqual([app.webhook_secret]);
    // Sealed for this app: it does not open as another app's.
    await expect(sealer.open(after?.webhook_secret_sealed ?? "", { appId: "app_other" })).rejects.toThrow();
    const again = await opsInProcess(["webhooks", "reseal", "--json"], dataDir);
    expect(JSON.parse(again.stdout)).toMatchObject({ resealed: 0 });
    rmSync(dataDir, { recursive: true, force: true });
  });
});
