/**
 * The ops command as operators run it: a real process (exit codes, --json, one-line errors)
 * aimed at the test's tables through a runtime.json, and the same program in process for
 * every bad input. Keys it issues are checked through the real authorizer.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseDuration } from "../../ops/arguments.ts";
import { EXIT } from "../../ops/failures.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { expectProblem } from "../support/client.ts";
import {
  expectNoPlainSecrets,
  type OpsRun,
  opsInProcess,
  probe,
  runtimeFileFor,
  startCallerIdentity,
} from "./support.ts";

const root = path.resolve(__dirname, "../..");
let api: TestApi;
let dataDir: string;
let callerIdentity: Awaited<ReturnType<typeof startCallerIdentity>>;
const issued: string[] = [];

type Run = OpsRun;

beforeAll(async () => {
  api = await startApi();
  dataDir = runtimeFileFor(api, inject("engines").dynamoEndpoint);
  // A deployed target asks STS who runs it; the standard per-service endpoint setting aims it here.
  callerIdentity = await startCallerIdentity();
  process.env.AWS_ENDPOINT_URL_STS = callerIdentity.url;
});
afterAll(async () => {
  delete process.env.AWS_ENDPOINT_URL_STS;
  await callerIdentity.stop();
  await api.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run ops -- <args>` as a process. */
function ops(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["ops/cli.ts", ...args], {
      cwd: root,
      env: { ...process.env, LOCAL_DATA_DIR: dataDir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ exit: code ?? -1, stdout, stderr }));
  });
}

/** The same program in this process: quicker, for the many bad inputs. */
const opsHere = (args: string[]) => opsInProcess(args, dataDir);

function json<T = Record<string, unknown>>(run: Run): T {
  expect(run, run.stderr).toMatchObject({ exit: EXIT.ok, stderr: "" });
  return JSON.parse(run.stdout) as T;
}

/** A failure: nothing on stdout, one line on stderr; with --json that line is the error object. */
function failure(run: Run, exit: number, code?: string) {
  expect({ exit: run.exit, stdout: run.stdout }, run.stderr).toEqual({ exit, stdout: "" });
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  if (code) expect(JSON.parse(run.stderr)).toEqual({ error: { code, message: expect.any(String) } });
  else expect(run.stderr).toMatch(/^error: \S/);
  return run.stderr;
}

interface Created {
  app_id: string;
  api_key: string;
  key_prefix: string;
  webhook_secret: string;
  environment: string;
  status: string;
}

async function createdApp(name: string): Promise<Created> {
  const created = json<Created>(await opsHere(["apps", "create", "--name", name, "--json"]));
  issued.push(created.api_key, created.webhook_secret);
  return created;
}

describe("as a process", () => {
  it("creates, rotates and revokes, and the keys it prints behave so at the API", async () => {
    const created = json<Created>(
      await ops([
        "apps",
        "create",
        "--name",
        "Walkthrough",
        "--webhook-url",
        "https://hooks.example.com/v1",
        "--key-name",
        "First servers",
        "--json",
      ]),
    );
    issued.push(created.api_key, created.webhook_secret);
    expect(created).toMatchObject({
      app_id: expect.stringMatching(/^app_[0-9A-Z]{26}$/),
      name: "Walkthrough",
      environment: "sandbox",
      status: "active",
      webhook_url: "https://hooks.example.com/v1",
      api_key: expect.stringMatching(/^vk_sandbox_/),
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    expect(created.api_key.startsWith(created.key_prefix)).toBe(true);

    const rotated = json<{
      api_key: string;
      key: { prefix: string; name: string | null };
      expiring: { prefix: string; status: string; name: string | null }[];
    }>(await ops(["keys", "rotate", created.app_id, "--grace", "30m", "--name", "New servers", "--json"]));
    issued.push(rotated.api_key);
    expect(rotated.key.name).toBe("New servers");
    expect(rotated.expiring).toEqual([
      expect.objectContaining({ prefix: created.key_prefix, status: "expiring", name: "First servers" }),
    ]);

    const revoked = await ops(["keys", "revoke", created.app_id, "--key", created.key_prefix]);
    expect(revoked).toMatchObject({ exit: EXIT.ok, stderr: "" });
    expect(revoked.stdout).toContain(`Revoked 1 key(s) of ${created.app_id}`);
    expectProblem(await probe(api, created.api_key), 401, "invalid_api_key");
    expect((await probe(api, rotated.api_key)).status).toBe(404);

    const listed = await ops(["keys", "list", created.app_id]);
    expect(listed.exit).toBe(EXIT.ok);
    expect(listed.stdout).toMatch(new RegExp(`${created.key_prefix}\\s+revoked\\s+First servers`));
    // The probe passed the authorizer with the new key: its use is recorded, the revoked key's was never.
    expect(listed.stdout).toMatch(
      new RegExp(`${rotated.key.prefix}\\s+active\\s+New servers\\s+\\S+\\s+-\\s+-\\s+\\d{4}-\\d{2}-\\d{2}T`),
    );
    expect(listed.stdout).not.toContain(rotated.api_key);
  });

  it("exits 2 for a usage error, 3 for an unknown app, 4 for a refusal, 1 without a runtime", async () => {
    const other = mkdtempSync(path.join(os.tmpdir(), "verification-api-ops-none-"));
    const app = await createdApp("Refusals");
    const [usage, usageJson, missing, refused, unavailable] = await Promise.all([
      ops(["keys", "rotate", app.app_id, "--grace", "soon"]),
      ops(["--json", "keys", "rotate", app.app_id, "--grace", "soon"]),
      ops(["apps", "show", "app_01ARZ3NDEKTSV4RRFFQ69G5FAV", "--json"]),
      ops(["keys", "rotate", app.app_id, "--grace", "8d", "--json"]),
      ops(["apps", "list"], { LOCAL_DATA_DIR: other }),
    ]);
    rmSync(other, { recursive: true, force: true });
    expect(failure(usage, EXIT.usage)).toContain("--grace");
    failure(usageJson, EXIT.usage, "usage_error");
    failure(missing, EXIT.notFound, "app_not_found");
    failure(refused, EXIT.refused, "grace_out_of_range");
    expect(failure(unavailable, EXIT.failed)).toContain("npm start");
  });

  it("reaches a deployed environment's table named by flags, with credentials from the AWS chain", async () => {
    const app = await createdApp("Deployed");
    const listed = json<{ apps: { app_id: string }[] }>(
      await ops(
        [
          "--env",
          "sandbox",
          "--region",
          "us-east-1",
          "--apps-table",
          api.tables.apps,
          "--audit-table",
          api.tables.audit,
          "apps",
          "list",
          "--json",
        ],
        {
          // The standard per-service endpoint setting, here aimed at DynamoDB Local.
          AWS_ENDPOINT_URL_DYNAMODB: inject("engines").dynamoEndpoint,
          LOCAL_DATA_DIR: path.join(dataDir, "absent"),
        },
      ),
    );
    expect(listed.apps.map((item) => item.app_id)).toContain(app.app_id);
  });
});

describe("every command", () => {
  it("gives each app without its request bucket one with apps sync-limits, and none the second time", async () => {
    const lost = await api.appWithoutLimits();
    issued.push(lost.api_key, lost.webhook_secret);
    expectProblem(await probe(api, lost.api_key), 503, "service_unavailable");

    const first = json<{ registered: string[]; unchanged: number }>(await opsHere(["apps", "sync-limits", "--json"]));
    expect(first.registered).toEqual([lost.app_id]);
    expect((await probe(api, lost.api_key)).status).toBe(404);
    const again = await opsHere(["apps", "sync-limits"]);
    expect(again).toMatchObject({ exit: EXIT.ok, stderr: "" });
    expect(again.stdout).toMatch(/^Every app of .* has its request bucket \(\d+ apps\)\n$/);
  });

  it("answers --json and a readable table for apps list, show, disable and enable", async () => {
    const app = await createdApp("Listed");
    const list = json<{ apps: { app_id: string; status: string }[] }>(await opsHere(["apps", "list", "--json"]));
    expect(list.apps).toContainEqual(expect.objectContaining({ app_id: app.app_id, status: "active" }));
    const table = await opsHere(["apps", "list"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^APP ID\s+NAME\s+ENV\s+STATUS\s+WEBHOOK URL\s+CREATED$/);
    expect(table.stdout).toMatch(new RegExp(`${app.app_id}\\s+Listed\\s+sandbox\\s+active`));

    const shown = json<{ app_id: string; keys: { prefix: string; status: string }[] }>(
      await opsHere(["apps", "show", app.app_id, "--json"]),
    );
    expect(shown).toMatchObject({ app_id: app.app_id, keys: [{ prefix: app.key_prefix, status: "active" }] });
    expect(JSON.stringify(shown)).not.toMatch(/vk_sandbox_[A-Za-z0-9_-]{43}|whsec_|sealed/);

    expect(json(await opsHere(["apps", "disable", app.app_id, "--json"]))).toMatchObject({ status: "disabled" });
    expectProblem(await probe(api, app.api_key), 403, "app_disabled");
    const enabled = await opsHere(["apps", "enable", app.app_id]);
    expect(enabled.stdout).toMatch(new RegExp(`^${app.app_id} is active\\.`));
  });

  it("lists keys without the key, and revokes them all", async () => {
    const app = await createdApp("Keys");
    const rotated = json<{ api_key: string }>(await opsHere(["keys", "rotate", app.app_id, "--json"]));
    issued.push(rotated.api_key);
    const keys = json<{ keys: Record<string, unknown>[] }>(await opsHere(["keys", "list", app.app_id, "--json"]));
    expect(keys.keys.map((key) => Object.keys(key).sort())).toEqual([
      ["created_at", "expires_at", "key_id", "last_used_at", "name", "prefix", "revoked_at", "status"],
      ["created_at", "expires_at", "key_id", "last_used_at", "name", "prefix", "revoked_at", "status"],
    ]);
    const revoked = json<{ revoked: unknown[] }>(await opsHere(["keys", "revoke", app.app_id, "--all", "--json"]));
    expect(revoked.revoked).toHaveLength(2);
    expect((await probe(api, rotated.api_key)).status).toBe(401);
  });

  it("sets the webhook URL and rotates the secret, printing the new secret once", async () => {
    const app = await createdApp("Webhooks");
    expect(
      json(await opsHere(["webhooks", "set", app.app_id, "--url", "http://127.0.0.1:4000/hook", "--json"])),
    ).toEqual({ app_id: app.app_id, webhook_url: "http://127.0.0.1:4000/hook" });
    const rotated = json<{ webhook_secret: string; previous_secret_expires_at: string }>(
      await opsHere(["webhooks", "rotate-secret", app.app_id, "--json"]),
    );
    issued.push(rotated.webhook_secret);
    expect(rotated.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.webhook_secret).not.toBe(app.webhook_secret);
    const shown = json<{ previous_webhook_secret_expires_at: string | null }>(
      await opsHere(["apps", "show", app.app_id, "--json"]),
    );
    expect(shown.previous_webhook_secret_expires_at).toBe(rotated.previous_secret_expires_at);
  });

  it("removes the webhook URL", async () => {
    const app = await createdApp("No webhooks");
    await opsHere(["webhooks", "set", app.app_id, "--url", "http://127.0.0.1:4000/hook"]);
    expect(json(await opsHere(["webhooks", "remove", app.app_id, "--json"]))).toEqual({
      app_id: app.app_id,
      webhook_url: null,
    });
    expect(
      json<{ webhook_url: string | null }>(await opsHere(["apps", "show", app.app_id, "--json"])).webhook_url,
    ).toBe(null);
    expect((await opsHere(["webhooks", "remove", app.app_id])).stdout).toBe(`Events of ${app.app_id} go nowhere now\n`);
  });

  it("shows help with exit 0", async () => {
    const help = await opsHere(["keys", "rotate", "--help"]);
    expect(help.exit).toBe(EXIT.ok);
    expect(help.stdout).toContain("--grace <duration>");
  });
});

describe("bad input", () => {
  const cases: [string, (app: Created) => string[], number, string][] = [
    ["an unknown command", () => ["apps", "lst"], EXIT.usage, "usage_error"],
    ["create without --name", () => ["apps", "create"], EXIT.usage, "usage_error"],
    ["an empty name", () => ["apps", "create", "--name", " "], EXIT.usage, "invalid_input"],
    ["a malformed app id", () => ["apps", "show", "not-an-app"], EXIT.usage, "usage_error"],
    [
      "an environment that does not exist",
      () => ["apps", "create", "--name", "x", "--env", "staging"],
      EXIT.usage,
      "usage_error",
    ],
    ["a target option after the command", () => ["apps", "list", "--env", "production"], EXIT.usage, "usage_error"],
    ["a table without --env", () => ["--apps-table", "elsewhere", "apps", "list"], EXIT.usage, "usage_error"],
    [
      "a grace that is not a duration",
      (app) => ["keys", "rotate", app.app_id, "--grace", "1 day"],
      EXIT.usage,
      "usage_error",
    ],
    ["revoke without --key or --all", (app) => ["keys", "revoke", app.app_id], EXIT.usage, "usage_error"],
    [
      "revoke with both --key and --all",
      (app) => ["keys", "revoke", app.app_id, "--key", app.key_prefix, "--all"],
      EXIT.usage,
      "usage_error",
    ],
    [
      "a webhook URL that is not a URL",
      (app) => ["webhooks", "set", app.app_id, "--url", "example.com"],
      EXIT.usage,
      "invalid_input",
    ],
    ["an unknown app", () => ["keys", "list", "app_01ARZ3NDEKTSV4RRFFQ69G5FAV"], EXIT.notFound, "app_not_found"],
    [
      "a prefix the app has no live key with",
      (app) => ["keys", "revoke", app.app_id, "--key", "vk_sandbox_zzzzzzzz"],
      EXIT.notFound,
      "key_not_found",
    ],
    [
      "a grace over 7 days",
      (app) => ["keys", "rotate", app.app_id, "--grace", "8d"],
      EXIT.refused,
      "grace_out_of_range",
    ],
    [
      "a production app in the sandbox runtime",
      () => ["apps", "create", "--name", "x", "--env", "production"],
      EXIT.refused,
      "environment_mismatch",
    ],
    [
      "a sandbox app in a production table",
      () => [
        "--env",
        "production",
        "--apps-table",
        "elsewhere",
        "--audit-table",
        "elsewhere",
        "apps",
        "create",
        "--name",
        "x",
        "--env",
        "sandbox",
      ],
      EXIT.refused,
      "environment_mismatch",
    ],
    [
      "plain http to a public host",
      (app) => ["webhooks", "set", app.app_id, "--url", "http://hooks.example.com/"],
      EXIT.refused,
      "webhook_url_not_allowed",
    ],
    [
      "create with a refused webhook URL",
      () => ["apps", "create", "--name", "x", "--webhook-url", "ftp://example.com/"],
      EXIT.refused,
      "webhook_url_not_allowed",
    ],
  ];
  let app: Created;
  beforeAll(async () => {
    app = await createdApp("Bad input");
  });

  it.each(cases)("%s: one line, the exit code and the JSON error code", async (_name, args, exit, code) => {
    failure(await opsHere(args(app)), exit);
    failure(await opsHere([...args(app), "--json"]), exit, code);
  });

  it("refuses a third live key", async () => {
    const target = await createdApp("Two keys");
    issued.push(json<{ api_key: string }>(await opsHere(["keys", "rotate", target.app_id, "--json"])).api_key);
    failure(await opsHere(["keys", "rotate", target.app_id, "--json"]), EXIT.refused, "too_many_live_keys");
  });

  it("names where target options go when one follows the command", async () => {
    const run = await opsHere(["apps", "list", "--env", "production"]);
    expect(run.stderr).toContain("target options go before the command");
  });
});

describe("durations", () => {
  it("read seconds, minutes, hours and days", () => {
    expect(["90s", "30m", "24h", "7d"].map(parseDuration)).toEqual([90, 1800, 86400, 604800]);
    for (const text of ["", "24", "1.5h", "-1h", "1w", "1 d"]) expect(() => parseDuration(text)).toThrow();
  });
});

describe("storage", () => {
  it("holds none of the keys and secrets the command printed in plain text", async () => {
    await expectNoPlainSecrets(api, issued);
  });
});
