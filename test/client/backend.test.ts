/**
 * examples/backend, the customer backend on the TypeScript client: its one command run against
 * the local runtime (and `npm start` itself, whose dev app's destination it borrows and gives
 * back, at its end and on Ctrl+C), and its routes driven directly (a retried upload, replayed
 * and forged webhooks, a restart that lost what the webhooks said).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createClient } from "../../clients/typescript/src/index.ts";
import { backend } from "../../examples/backend/server.ts";
import { freePort } from "../../local/engines.ts";
import { useApiFixture } from "../support/fixture.ts";
import { startRuntime, stopRuntime } from "../support/runtime.ts";
import { until } from "../support/until.ts";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const CERTIFICATE = path.join(ROOT, "docs/test-documents/yok-active.pdf");

const fixture = useApiFixture({ pipeline: true });

describe("the example backend", () => {
  it("runs as one command against the local runtime and prints the decision", async () => {
    const port = await freePort();
    const app = await fixture.api.newApp("sandbox", `http://127.0.0.1:${port}/webhooks`);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "example-backend-"));
    try {
      await writeFile(
        path.join(dataDir, "dev-app.json"),
        JSON.stringify({
          base_url: fixture.api.baseUrl,
          app_id: app.app_id,
          api_key: app.api_key,
          webhook_secret: app.webhook_secret,
          environment: "sandbox",
        }),
      );
      const { stdout } = await run("npm", ["run", "-s", "example:backend"], {
        cwd: ROOT,
        env: { ...process.env, LOCAL_DATA_DIR: dataDir, EXAMPLE_PORT: String(port), EXAMPLE_DESTINATION: "keep" },
        timeout: 60_000,
      });
      expect(stdout).toMatch(/POST \/students\/student-4711\/certificate -> 202/);
      expect(stdout.trim().split("\n").at(-1)).toBe("GET  /students/student-4711/certificate -> completed verified");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("makes one verification for a retried upload, refuses a forged webhook, and asks the API after a restart", async () => {
    const port = await freePort();
    const app = await fixture.api.newApp("sandbox", `http://127.0.0.1:${port}/webhooks`);
    const client = createClient({ baseUrl: fixture.api.baseUrl, apiKey: app.api_key });
    const serve = (on: number) =>
      new Promise<Server>((resolve) => {
        const server = backend({ client, webhookSecret: app.webhook_secret }).listen(on, "127.0.0.1", () =>
          resolve(server),
        );
      });
    const stop = async (server: Server) => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
    let self = `http://127.0.0.1:${port}`;
    const document = await readFile(CERTIFICATE);
    const send = () =>
      fetch(`${self}/students/s-77/certificate`, {
        method: "POST",
        headers: { "Content-Type": "application/pdf" },
        body: document,
      });
    const check = async () => (await (await fetch(`${self}/students/s-77/certificate`)).json()) as { status: string };

    let server = await serve(port);
    const first = (await (await send()).json()) as { verification_id: string };
    const again = (await (await send()).json()) as { verification_id: string };
    expect(again.verification_id).toBe(first.verification_id);
    expect(await until(check, (state) => state.status === "completed", 20_000)).toMatchObject({
      verification_id: first.verification_id,
      result: "verified",
    });
    const page = await client.listVerifications({ external_reference_id: "s-77" });
    expect(page.data).toHaveLength(1);

    const forged = await fetch(`${self}/webhooks`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "evt_forged",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,Zm9yZ2Vk",
      },
      body: JSON.stringify({ id: "evt_forged", type: "verification.failed" }),
    });
    expect(forged.status).toBe(400);
    expect((await check()).status).toBe("completed");

    // A restart forgets what the webhooks said: the backend asks the API by the student's reference.
    // On a port of its own, so no connection to the stopped one is reused.
    await stop(server);
    const restarted = await freePort();
    server = await serve(restarted);
    self = `http://127.0.0.1:${restarted}`;
    expect(await check()).toMatchObject({ verification_id: first.verification_id, status: "completed" });
    await stop(server);
  });
  it("gives the dev app back the destination it had: its own after Ctrl+C, none after it ends", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "example-destination-"));
    // e-Devlet's answers slowed, so the decision is still awaited when Ctrl+C comes.
    const runtime = await startRuntime({ LOCAL_DATA_DIR: dataDir, SIMULATOR_LATENCY_MS: "1500" }, ["--in-memory"]);
    try {
      const { app_id } = JSON.parse(await readFile(path.join(dataDir, "dev-app.json"), "utf8")) as { app_id: string };
      const port = await freePort();
      const env = { ...process.env, LOCAL_DATA_DIR: dataDir, EXAMPLE_PORT: String(port) };
      const ops = async (...args: string[]) =>
        (await run("npm", ["run", "-s", "ops", "--", ...args], { cwd: ROOT, env })).stdout;
      const destination = async () =>
        (JSON.parse(await ops("apps", "show", app_id, "--json")) as { webhook_url: string | null }).webhook_url;

      const own = "http://127.0.0.1:4999/my-receiver";
      await ops("webhooks", "set", app_id, "--url", own);
      // A process group of its own, signalled whole, as a terminal's Ctrl+C is.
      const example = spawn("npm", ["run", "-s", "example:backend"], {
        cwd: ROOT,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      example.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      // Closed, not exited: npm may end on the signal before the backend has restored and said so;
      // its output pipe closes only once every process holding it, the backend too, has ended.
      const exited = new Promise((resolve) => example.once("close", resolve));
      await until(
        () => output,
        (text) => text.includes("POST /students/student-4711/certificate -> 202"),
        60_000,
      );
      expect(await destination()).toBe(`http://127.0.0.1:${port}/webhooks`);
      process.kill(-(example.pid ?? 0), "SIGINT");
      await exited;
      expect(output).not.toContain("-> completed");
      expect(output.trim().split("\n").at(-1)).toBe(`the dev app's webhooks go back to ${own}`);
      expect(await destination()).toBe(own);

      // No destination before: none after. (The same student and file: the first verification, replayed.)
      await ops("webhooks", "remove", app_id);
      expect(await destination()).toBeNull();
      const { stdout } = await run("npm", ["run", "-s", "example:backend"], { cwd: ROOT, env, timeout: 90_000 });
      expect(stdout).toContain(`the dev app's webhooks now go to http://127.0.0.1:${port}/webhooks\n`);
      expect(stdout).toContain("GET  /students/student-4711/certificate -> completed verified\n");
      expect(stdout.trim().split("\n").at(-1)).toBe("the dev app's webhooks go nowhere again, as before");
      expect(await destination()).toBeNull();
    } finally {
      await stopRuntime(runtime);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
