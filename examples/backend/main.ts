/**
 * `npm run example:backend`: the example backend against the local runtime (`npm start`), in one
 * command. It reads the dev app from `.local/dev-app.json`, serves on EXAMPLE_PORT (4100), points
 * the dev app's webhooks at itself (`ops webhooks set`), sends the published test certificate as
 * student `student-4711`, and prints what it learns until the decision arrives.
 *
 * Against a deployed sandbox instead: set VERIFICATION_API_URL, VERIFICATION_API_KEY and
 * VERIFICATION_WEBHOOK_SECRET, and make the app's destination reach this backend yourself.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
// In your backend: from "@verification-api/client".
import { createClient } from "../../clients/typescript/src/index.ts";
import { backend } from "./server.ts";

const ROOT = path.resolve(__dirname, "../..");
const CERTIFICATE = path.join(ROOT, "docs/test-documents/yok-active.pdf");
const STUDENT = "student-4711";

interface Target {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  /** The dev app, whose destination this command may set; none for a deployed app. */
  devAppId?: string;
}

function target(): Target {
  const { VERIFICATION_API_URL, VERIFICATION_API_KEY, VERIFICATION_WEBHOOK_SECRET } = process.env;
  if (VERIFICATION_API_URL && VERIFICATION_API_KEY && VERIFICATION_WEBHOOK_SECRET) {
    return { baseUrl: VERIFICATION_API_URL, apiKey: VERIFICATION_API_KEY, webhookSecret: VERIFICATION_WEBHOOK_SECRET };
  }
  const file = path.resolve(process.env.LOCAL_DATA_DIR ?? path.join(ROOT, ".local"), "dev-app.json");
  let devApp: { base_url: string; api_key: string; webhook_secret: string; app_id: string };
  try {
    devApp = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new Error(`No dev app in ${file}: start the local runtime first (npm start)`);
  }
  return {
    baseUrl: devApp.base_url,
    apiKey: devApp.api_key,
    webhookSecret: devApp.webhook_secret,
    devAppId: devApp.app_id,
  };
}

async function main(): Promise<void> {
  const { baseUrl, apiKey, webhookSecret, devAppId } = target();
  const port = Number(process.env.EXAMPLE_PORT ?? 4100);
  const server: Server = backend({ client: createClient({ baseUrl, apiKey }), webhookSecret }).listen(
    port,
    "127.0.0.1",
  );
  await new Promise((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const self = `http://127.0.0.1:${port}`;
  process.stdout.write(`example backend on ${self}, calling ${baseUrl}\n`);
  try {
    if (devAppId && process.env.EXAMPLE_DESTINATION !== "keep") {
      execFileSync("npm", ["run", "-s", "ops", "--", "webhooks", "set", devAppId, "--url", `${self}/webhooks`], {
        cwd: ROOT,
        stdio: "ignore",
      });
      process.stdout.write(`the dev app's webhooks now go to ${self}/webhooks\n`);
    }
    const sent = await fetch(`${self}/students/${STUDENT}/certificate`, {
      method: "POST",
      headers: { "Content-Type": "application/pdf", "X-Filename": "yok-active.pdf" },
      body: readFileSync(CERTIFICATE),
    });
    process.stdout.write(`POST /students/${STUDENT}/certificate -> ${sent.status} ${await sent.text()}\n`);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const check = (await (await fetch(`${self}/students/${STUDENT}/certificate`)).json()) as {
        status: string;
        result: string | null;
      };
      process.stdout.write(`GET  /students/${STUDENT}/certificate -> ${check.status} ${check.result ?? ""}\n`);
      if (["completed", "failed", "expired", "in_review"].includes(check.status)) break;
      if (Date.now() > deadline) throw new Error("No decision within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`example backend: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
