/**
 * `npm run example:backend`: the example backend against the local runtime (`npm start`), in one
 * command. It reads the dev app from `$LOCAL_DATA_DIR/dev-app.json` (`.local/` by default), serves on EXAMPLE_PORT (4100), points
 * the dev app's webhooks at itself (`ops webhooks set`), sends the published test certificate as
 * student `student-4711`, and prints what it learns until the decision arrives. Then, or on
 * Ctrl+C, it gives the dev app back the destination it had (`ops webhooks set`, or
 * `ops webhooks remove` when it had none); EXAMPLE_DESTINATION=keep leaves the destination alone.
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
    throw new Error(
      `No dev app in ${file}: start the local runtime first (npm start), or set LOCAL_DATA_DIR to the folder it was started with`,
    );
  }
  return {
    baseUrl: devApp.base_url,
    apiKey: devApp.api_key,
    webhookSecret: devApp.webhook_secret,
    devAppId: devApp.app_id,
  };
}

function ops(args: string[]): string {
  return execFileSync("npm", ["run", "-s", "ops", "--", ...args], { cwd: ROOT, encoding: "utf8" });
}

/**
 * Points the dev app's webhooks at `url`, and answers what gives it back the destination it had:
 * run once, at the end or on Ctrl+C.
 */
function borrowDestination(appId: string, url: string): () => void {
  const { webhook_url: previous } = JSON.parse(ops(["apps", "show", appId, "--json"])) as {
    webhook_url: string | null;
  };
  ops(["webhooks", "set", appId, "--url", url]);
  process.stdout.write(`the dev app's webhooks now go to ${url}\n`);
  let restored = false;
  // Done only once it worked: a Ctrl+C that interrupted it (the terminal signals the ops command too) runs it again.
  return () => {
    if (restored) return;
    if (previous) {
      ops(["webhooks", "set", appId, "--url", previous]);
      process.stdout.write(`the dev app's webhooks go back to ${previous}\n`);
    } else {
      ops(["webhooks", "remove", appId]);
      process.stdout.write("the dev app's webhooks go nowhere again, as before\n");
    }
    restored = true;
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
  // What gives the dev app back its destination, once this has borrowed it.
  let restore: () => void = () => undefined;
  // Ctrl+C (or a stop) while it waits: the destination goes back before the process ends. The
  // handler stays installed: a terminal signals npm too, which passes the signal on, so a second
  // one can arrive while the first is still restoring; without a handler it would end the process
  // there, before the destination is back. (Run in-process with `node --import tsx`: the tsx
  // command's own parent would kill this process outright when its event loop, blocked by the
  // restore, does not acknowledge a relayed signal within 30 ms.)
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(signal, () => {
      restore();
      process.exit(code);
    });
  }
  try {
    if (devAppId && process.env.EXAMPLE_DESTINATION !== "keep") {
      restore = borrowDestination(devAppId, `${self}/webhooks`);
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
    restore();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`example backend: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
