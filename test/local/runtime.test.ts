/**
 * `npm start` as a newcomer runs it: a real process with its own engines, stopped by a
 * signal, restarted on the same data.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isAlive, isPortOpen } from "../../local/engines.ts";
import { Customer, expectVerification } from "../support/client.ts";
import { startRuntime as start, stopRuntime as stop } from "../support/runtime.ts";
import { until } from "../support/until.ts";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-runtime-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const devAppFile = () => JSON.parse(readFileSync(path.join(dataDir, "dev-app.json"), "utf8"));

describe("npm start", () => {
  let verificationId = "";

  it("seeds a sandbox dev app on first start, named in the runtime's language, prints it, saves it, and serves with it", async () => {
    const running = await start({ LOCAL_DATA_DIR: dataDir });
    expect(running.output()).toMatch(/^ {2}app {13}Yerel geliştirme uygulaması$/m);
    const devApp = devAppFile();
    expect(Object.keys(devApp).sort()).toEqual(["api_key", "app_id", "base_url", "environment", "webhook_secret"]);
    expect(devApp).toMatchObject({
      base_url: `http://127.0.0.1:${running.ports[0]}`,
      environment: "sandbox",
      app_id: expect.stringMatching(/^app_/),
      api_key: expect.stringMatching(/^vk_sandbox_/),
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    for (const value of [devApp.base_url, devApp.api_key, devApp.webhook_secret])
      expect(running.output()).toContain(value);
    const customer = new Customer(devApp.base_url, devApp.api_key);
    verificationId = (await customer.created()).verification_id;

    const jvm = Number(readFileSync(path.join(dataDir, "dynamodb.pid"), "utf8"));
    expect(isAlive(jvm)).toBe(true);
    expect(await stop(running, "SIGTERM")).toBe(0);
    expect(isAlive(jvm)).toBe(false);
    for (const port of running.ports) expect(await isPortOpen(port)).toBe(false);
  });

  it("keeps the app and its data across a restart, and stops on Ctrl-C (SIGINT)", async () => {
    const before = devAppFile();
    const running = await start({ LOCAL_DATA_DIR: dataDir });
    const after = devAppFile();
    expect(after.app_id).toBe(before.app_id);
    expect(after.api_key).toBe(before.api_key);
    expect(running.output()).not.toContain("(new)");
    const fetched = await new Customer(after.base_url, after.api_key).get(verificationId);
    expect(expectVerification(fetched).verification_id).toBe(verificationId);
    expect(await stop(running, "SIGINT")).toBe(0);
    expect(existsSync(path.join(dataDir, "dynamodb.pid"))).toBe(false);
  });

  it("stops every process it started when npm start's own process gets SIGTERM, after a banner with absolute paths and the webhook destination", async () => {
    const destination = "http://127.0.0.1:4000/webhooks";
    const running = await start({ LOCAL_DATA_DIR: dataDir, DEV_WEBHOOK_URL: destination }, [], "npm");
    const output = running.output();
    expect(output).toMatch(new RegExp(`^ {2}webhooks to {5}${destination}$`, "m"));
    expect(output).toMatch(new RegExp(`^ {2}saved to {8}${path.join(dataDir, "dev-app.json")}$`, "m"));
    expect(output).toMatch(new RegExp(`^ {2}data {12}${dataDir}$`, "m"));
    const jvm = Number(readFileSync(path.join(dataDir, "dynamodb.pid"), "utf8"));
    expect(isAlive(jvm)).toBe(true);

    // What `kill -TERM <npm's pid>` does: npm passes it to the shell running the script, not to the runtime.
    await stop(running, "SIGTERM");
    await until(
      async () => ({
        jvm: isAlive(jvm),
        open: (await Promise.all(Object.values(running.listeners).map(isPortOpen))).some(Boolean),
      }),
      (state) => !state.jvm && !state.open,
      20_000,
    );
  });

  it("runs in memory for production with LOCAL_IN_MEMORY and LOCAL_ENV, its names in English with LOCAL_LANGUAGE", async () => {
    const memoryDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-memory-"));
    try {
      const running = await start({
        LOCAL_DATA_DIR: memoryDir,
        LOCAL_IN_MEMORY: "true",
        LOCAL_ENV: "production",
        LOCAL_LANGUAGE: "en",
      });
      expect(running.output()).toMatch(/^ {2}app {13}Local development app$/m);
      const devApp = JSON.parse(readFileSync(path.join(memoryDir, "dev-app.json"), "utf8"));
      expect(devApp.environment).toBe("production");
      expect(devApp.api_key).toMatch(/^vk_production_/);
      const created = await new Customer(devApp.base_url, devApp.api_key).created();
      expect(created.environment).toBe("production");
      expect(existsSync(path.join(memoryDir, "dynamodb"))).toBe(false);
      expect(await stop(running, "SIGTERM")).toBe(0);
    } finally {
      rmSync(memoryDir, { recursive: true, force: true });
    }
  });
});
