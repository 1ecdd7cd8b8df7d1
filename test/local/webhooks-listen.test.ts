/**
 * `npm run webhooks:listen`: verifies each delivery with the dev app's secret and prints it,
 * every event type (the portal's real `webhook.test` included), or names why it refused it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWebhookSecret } from "#shared/domain/credentials";
import { signWebhook } from "#shared/domain/webhook-signature";
import { freePort } from "../../local/engines.ts";
import { useApiFixture } from "../support/fixture.ts";

const root = path.resolve(__dirname, "../..");
const fixture = useApiFixture();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-listen-"));
const secret = generateWebhookSecret();
let listener: ChildProcess;
let output = "";
let url = "";

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/webhooks`;
  listener = spawn(process.execPath, ["--import", "tsx", "local/webhooks-listen.ts"], {
    cwd: root,
    env: { ...process.env, LISTEN_PORT: String(port), LOCAL_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  listener.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (!output.includes("Listening")) return;
      clearInterval(timer);
      resolve();
    }, 25);
    listener.once("exit", (code) => reject(new Error(`the listener exited with ${code}: ${output}`)));
  });
});
afterAll(async () => {
  const exited = new Promise((resolve) => listener.once("exit", resolve));
  listener.kill("SIGTERM");
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

/** The listener's stdout reaches this process a moment after its reply does. */
async function printed(text: string): Promise<string> {
  const deadline = Date.now() + 5000;
  while (!output.includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return output;
}

function deliver(body: string, signWith: string, signedAt = Date.now()) {
  const id = "evt_01KAJ8Z1C0QX5M3V7N9R2T4W6Y";
  const timestamp = Math.floor(signedAt / 1000);
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook([signWith], id, timestamp, body),
    },
    body,
  });
}

const event = JSON.stringify({
  id: "evt_01KAJ8Z1C0QX5M3V7N9R2T4W6Y",
  type: "verification.completed",
  data: {
    verification: {
      verification_id: "ver_01KAJ8Y0000000000000000000",
      status: "completed",
      result: "verified",
      sequence: 3,
    },
  },
});

describe("npm run webhooks:listen", () => {
  it("refuses deliveries until npm start has seeded the dev app", async () => {
    expect((await deliver(event, secret)).status).toBe(503);
  });

  it("prints a delivery signed with the dev app's secret, answering 204", async () => {
    writeFileSync(path.join(dataDir, "dev-app.json"), JSON.stringify({ webhook_secret: secret }));
    expect((await deliver(event, secret)).status).toBe(204);
    expect(await printed("signature ok")).toContain(
      "signature ok  verification.completed  ver_01KAJ8Y0000000000000000000  status=completed result=verified sequence=3",
    );
  });

  it("names a bad signature, a stale timestamp, a non-event and a missing header apart, each answered 400 with its reason", async () => {
    writeFileSync(path.join(dataDir, "dev-app.json"), JSON.stringify({ webhook_secret: secret }));
    const forged = await deliver(event, generateWebhookSecret());
    expect(forged.status).toBe(400);
    expect(await forged.text()).toMatch(/^bad_signature: /);
    expect(await printed("REJECTED (bad signature)")).toContain("REJECTED (bad signature): No signature matches");

    const stale = await deliver(event, secret, Date.now() - 10 * 60_000);
    expect(stale.status).toBe(400);
    expect(await stale.text()).toMatch(/^stale_timestamp: /);
    expect(await printed("REJECTED (stale timestamp)")).toContain("more than 5 minutes");

    for (const body of ["not json", JSON.stringify({ id: "evt_1" })]) {
      const notAnEvent = await deliver(body, secret);
      expect(notAnEvent.status, body).toBe(400);
      expect(await notAnEvent.text()).toMatch(/^not_an_event: /);
    }
    expect(await printed("REJECTED (not an event)")).toContain("REJECTED (not an event)");

    const unsigned = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: event });
    expect(unsigned.status).toBe(400);
    expect(await printed("REJECTED (not a webhook delivery)")).toContain("no webhook-id header");
    expect(output.match(/signature ok/g)).toHaveLength(1);
  });

  it("accepts the portal's webhook.test, and the portal shows it delivered", async () => {
    const owner = await fixture.api.portalUser("owner");
    const portal = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${fixture.api.portalUrl}${route}`, {
        method,
        headers: {
          Authorization: `Bearer ${owner.accessToken}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, text, json: JSON.parse(text) as unknown };
    };
    const created = await portal("POST", "/portal/v1/apps", { name: "Listener" });
    expect(created.status, created.text).toBe(201);
    const app = created.json as { app_id: string; webhook_secret: string };
    writeFileSync(path.join(dataDir, "dev-app.json"), JSON.stringify({ webhook_secret: app.webhook_secret }));
    expect((await portal("PUT", `/portal/v1/apps/${app.app_id}/webhook`, { url })).status).toBe(200);

    const tested = await portal("POST", `/portal/v1/apps/${app.app_id}/webhook/test`);
    expect(tested.status, tested.text).toBe(200);
    expect((tested.json as { delivery: unknown }).delivery).toMatchObject({
      event_type: "webhook.test",
      outcome: "delivered",
      response_status: 204,
    });
    expect(await printed("signature ok  webhook.test")).toContain(
      `signature ok  webhook.test  ${app.app_id}  "A test event sent from the portal: nothing changed."`,
    );
  });
});
