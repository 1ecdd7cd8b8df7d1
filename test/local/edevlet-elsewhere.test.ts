/**
 * `npm start` playing production with `LOCAL_EDEVLET=off`: it starts no simulator of its own and
 * asks whatever e-Devlet `EDEVLET_URL` and `EDEVLET_MOBILE_URL` name, here a simulator this test
 * runs apart from it, by the mobile endpoint. Genuine certificates verify, altered ones are
 * rejected, and a busy barcode waits in review once the retry window has passed.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdevletSimulator, type SimulatorHandler, startEdevletSimulator } from "../../local/edevlet.ts";
import { freePort } from "../../local/engines.ts";
import { PUBLISHED_CERTIFICATES } from "../../local/resources.ts";
import { Customer, processedDocument } from "../support/client.ts";
import { type RunningRuntime, startRuntime, stopRuntime } from "../support/runtime.ts";

let elsewhere: EdevletSimulator;
let runtime: RunningRuntime;
let customer: Customer;
let ownPort: number;

beforeAll(async () => {
  Object.assign(process.env, {
    SIMULATOR_DOCUMENTS: PUBLISHED_CERTIFICATES,
    SIMULATOR_KEY: "edevlet-elsewhere-test-key-of-32-chars-or-more",
  });
  const { handler } = (await import("../../functions/edevlet-simulator.ts")) as { handler: SimulatorHandler };
  elsewhere = await startEdevletSimulator(handler, 0);
  ownPort = await freePort();
  runtime = await startRuntime(
    {
      LOCAL_ENV: "production",
      LOCAL_EDEVLET: "off",
      EDEVLET_PORT: String(ownPort),
      EDEVLET_PROTOCOL: "mobile",
      EDEVLET_URL: elsewhere.url,
      EDEVLET_MOBILE_URL: elsewhere.url,
      ISSUER_RETRY_WINDOW_S: "3",
    },
    ["--in-memory"],
  );
  const key = runtime.output().match(/API key\s+(vk_production_\S+)/)?.[1];
  if (!key) throw new Error(`No production API key in the banner: ${runtime.output()}`);
  customer = new Customer(runtime.baseUrl, key);
}, 60_000);

afterAll(async () => {
  if (runtime) await stopRuntime(runtime);
  await elsewhere?.stop();
});

describe("npm start with LOCAL_EDEVLET=off", () => {
  it("says which e-Devlet it asks, and starts no simulator of its own", async () => {
    expect(runtime.output()).toContain(`e-Devlet (mobile) at ${elsewhere.url} / ${elsewhere.url} (LOCAL_EDEVLET=off)`);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(ownPort, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it("verifies a genuine certificate, rejects an altered one, and reviews an unknown one (the mobile endpoint documents no negative), asking the e-Devlet it was given", async () => {
    const before = elsewhere.stats().lookups;
    await processedDocument(customer, "yok-active.pdf", "YOK_STUDENT", {
      status: "completed",
      result: "verified",
      environment: "production",
    });
    await processedDocument(customer, "yok-altered.pdf", "YOK_STUDENT", { reason_code: "document_altered" });
    await processedDocument(customer, "gsb-unknown-barcode.pdf", "GSB_KYK_DORM", {
      status: "in_review",
      reason_code: "issuer_unavailable",
    });
    // The unknown barcode's answer is unrecognised: asked once more, then no further.
    expect(elsewhere.stats().lookups - before).toBe(4);
  });

  it("waits in review for a busy barcode only once the retry window has passed", async () => {
    const started = Date.now();
    await processedDocument(customer, "gsb-issuer-unavailable.pdf", "GSB_KYK_DORM", {
      status: "in_review",
      reason_code: "issuer_unavailable",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  });
});
