/** `npm run webhooks:listen`: verifies each delivery with the dev app's secret and prints it. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWebhookSecret } from "#shared/domain/credentials";
import { signWebhook } from "#shared/domain/webhook-signature";
import { freePort } from "../../local/engines.ts";

const root = path.resolve(__dirname, "../..");
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

function deliver(body: string, signWith: string) {
  const id = "evt_01KAJ8Z1C0QX5M3V7N9R2T4W6Y";
  const timestamp = Math.floor(Date.now() / 1000);
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

  it("prints a delivery signed with the dev app's secret and refuses any other", async () => {
    writeFileSync(path.join(dataDir, "dev-app.json"), JSON.stringify({ webhook_secret: secret }));
    expect((await deliver(event, secret)).status).toBe(204);
    expect(await printed("signature ok")).toContain(
      "signature ok  verification.completed  ver_01KAJ8Y0000000000000000000  status=completed result=verified sequence=3",
    );
    expect((await deliver(event, generateWebhookSecret())).status).toBe(400);
    expect(await printed("REJECTED: the signature")).toContain("REJECTED: the signature does not verify");
  });
});
