/**
 * The integration guide and the README quickstart, run as written: their bash blocks against a
 * real `npm start`, the guide's signature check against the public Standard Webhooks library,
 * and its error catalogue against the problem codes the API answers.
 *
 * The guide's blocks read `.local/dev-app.json` and `docs/test-documents/`, and write under
 * `.local/`, relative to where they run: the runtime's LOCAL_DATA_DIR is `<temp>/data`, linked as
 * `<temp>/.local`, the published documents are linked into `<temp>/docs`, and the blocks run in
 * `<temp>`, so the only change made to them is the base URL (the runtime listens on a free port,
 * not 3000). The quickstart runs unchanged, in a folder with no `.local`, with the runtime's PORT
 * and LOCAL_DATA_DIR set as a reader who changed them would set them.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATUSES } from "#shared/domain/state";
import { PROBLEMS, type ProblemCode } from "#shared/http/problems";
import { buildDocument } from "../../openapi/document.ts";
import { type RunningRuntime, startRuntime, stopRuntime } from "../support/runtime.ts";

const root = path.resolve(__dirname, "../..");
const guidePath = path.join(root, "docs/integration-guide.md");
const guide = readFileSync(guidePath, "utf8");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const DOCUMENTED_BASE = "http://127.0.0.1:3000";
const STATUS = `(${STATUSES.join("|")})`;

function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map(
    (match) => match[1] ?? "",
  );
}

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf("\n## ", start + heading.length + 2);
  return markdown.slice(start, end < 0 ? undefined : end);
}

const workDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-guide-"));
let runtime: RunningRuntime | undefined;
let baseUrl = "";

const dataDir = path.join(workDir, "data");
const quickstartDir = path.join(workDir, "quickstart");

beforeAll(async () => {
  // The blocks name the published test documents relative to the project root, as a reader runs them.
  for (const dir of [workDir, quickstartDir]) {
    mkdirSync(path.join(dir, "docs"), { recursive: true });
    symlinkSync(path.join(root, "docs/test-documents"), path.join(dir, "docs/test-documents"));
  }
  mkdirSync(dataDir);
  symlinkSync(dataDir, path.join(workDir, ".local"));
  runtime = await startRuntime({ LOCAL_DATA_DIR: dataDir }, ["--in-memory"]);
  baseUrl = runtime.baseUrl;
}, 60_000);

afterAll(async () => {
  if (runtime) await stopRuntime(runtime);
  rmSync(workDir, { recursive: true, force: true });
});

/** Runs bash code as a reader would paste it, stopping at the first failing command. */
function bash(code: string, options: { cwd: string; env?: Record<string, string> }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "bash",
      ["-c", `set -euo pipefail\n${code}`],
      { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** The guide's bash code, its documented base URL swapped for the runtime's. */
function runBash(script: string): Promise<string> {
  expect(script.split(DOCUMENTED_BASE).length - 1, "the documented base URL, once").toBe(1);
  return bash(script.replace(DOCUMENTED_BASE, baseUrl), { cwd: workDir });
}

describe("the README quickstart", () => {
  it("creates, uploads, confirms and fetches as written, on the PORT and LOCAL_DATA_DIR npm start was given, ending completed", async () => {
    const quickstart = blocks(section(readme, "## Quickstart: create, upload, confirm, fetch"), "bash");
    expect(quickstart).toHaveLength(1);
    const [code = ""] = quickstart;
    expect(code).not.toContain(":3000");
    // Unchanged, where no `.local` exists: everything comes from the runtime's own settings.
    const port = new URL(baseUrl).port;
    expect(port).not.toBe("3000");
    const output = await bash(code, { cwd: quickstartDir, env: { PORT: port, LOCAL_DATA_DIR: dataDir } });
    expect(output).not.toContain('"code"');
    // Step 3's answer and step 4's, each indented, a field a line: one verification, completed and verified in both.
    const answers = output
      .split(/^(?=\{$)/m)
      .map((answer) => JSON.parse(answer) as { verification_id: string; status: string; result: string });
    expect(answers).toHaveLength(2);
    expect(new Set(answers.map((answer) => answer.verification_id)).size).toBe(1);
    expect(answers.map((answer) => `${answer.status} ${answer.result}`)).toEqual([
      "completed verified",
      "completed verified",
    ]);
    expect(output).toMatch(/^ {2}"verification_id": "ver_[0-9A-Z]{26}",$/m);
  }, 60_000);
});

describe("the README quickstart by barcode alone", () => {
  it("creates a verification by its keys as written, answered completed verified with no file", async () => {
    const quickstart = blocks(section(readme, "## Quickstart by barcode alone: no file"), "bash");
    expect(quickstart).toHaveLength(1);
    const [code = ""] = quickstart;
    const port = new URL(baseUrl).port;
    const output = await bash(code, { cwd: quickstartDir, env: { PORT: port, LOCAL_DATA_DIR: dataDir } });
    const answer = JSON.parse(output) as Record<string, unknown>;
    expect(answer).toMatchObject({
      status: "completed",
      result: "verified",
      original_filename: null,
      file_size_bytes: null,
      max_document_age_days: 3650,
    });
    expect(answer).not.toHaveProperty("upload");
    expect(output).not.toContain("10000000146");
  }, 60_000);
});

describe("docs/integration-guide.md", () => {
  it("runs every bash block, in order, against npm start, with the answers it describes", async () => {
    const output = await runBash(blocks(guide, "bash").join("\n"));
    expect(output).toContain("create: 201");
    const id = /verification: (ver_[0-9A-Z]{26})/.exec(output)?.[1];
    expect(id).toBeDefined();
    expect(output).toContain("upload: 200");
    expect(output).toContain("<Code>SignatureDoesNotMatch</Code>");
    expect(output).toContain("upload with another type: 403");
    expect(output).toContain("confirm: 200");
    expect(output).toMatch(/status after confirm: (processing|completed|failed)/);
    expect(output).toMatch(new RegExp(`fetched: ${id} ${STATUS}`));
    expect(output).toContain("create by keys: 201");
    expect(output).toContain("by keys: completed verified");
    expect(output).toMatch(/^HTTP\/1\.1 201 Created\r?$/m);
    expect(output).toMatch(/^idempotent-replayed: true\r?$/im);
    expect(output).toContain('"code":"idempotency_key_reused"');
    // The sandbox's `test_verified_` reference prefix chooses the authority's answer.
    expect(output).toMatch(/^poll \d: completed verified$/m);
    expect(output).toMatch(/^erased: completed verified at \d{4}-\d{2}-\d{2}T/m);
    expect(output).toContain('"code":"verification_not_found"');
  }, 90_000);

  it("explains each refusal storage answers an upload with", () => {
    const rows = [...section(guide, "## When storage refuses the upload").matchAll(/^\| `(\d{3}) ([A-Za-z]+)`/gm)].map(
      ([, status, code]) => `${status} ${code}`,
    );
    expect(rows).toEqual([
      "403 SignatureDoesNotMatch",
      "403 SignatureDoesNotMatch",
      "403 AccessDenied",
      "403 AccessDenied",
      "400 EntityTooLarge",
    ]);
    expect(section(guide, "## When storage refuses the upload")).toContain("`Request has expired`");
  });

  it("gives a signature check that accepts what Standard Webhooks signs, and nothing else", () => {
    const [code, ...others] = blocks(guide, "js");
    expect(others).toEqual([]);
    const file = path.join(workDir, "verify-webhook.cjs");
    writeFileSync(file, `${code}\nmodule.exports = { verifyWebhook };\n`);
    const { verifyWebhook } = createRequire(__filename)(file) as {
      verifyWebhook: (secret: string, headers: Record<string, string>, body: string, now?: number) => boolean;
    };
    // Obviously fake secrets: 32 bytes of 0x01 and of 0x02.
    const secret = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
    const next = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;
    const body = JSON.stringify({ id: "evt_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0", type: "verification.completed" });
    const signedAt = new Date("2026-11-22T12:00:00Z");
    const now = signedAt.getTime() / 1000;
    const headers = (signature: string) => ({
      "webhook-id": "evt_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0",
      "webhook-timestamp": String(now),
      "webhook-signature": signature,
    });
    const signed = new Webhook(secret).sign("evt_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0", signedAt, body);
    const signedWithNext = new Webhook(next).sign("evt_01JDQ8Z6S7M3V4X5Y6Z7A8B9C0", signedAt, body);

    expect(verifyWebhook(secret, headers(signed), body, now)).toBe(true);
    expect(verifyWebhook(secret, headers(`${signedWithNext} ${signed}`), body, now), "during a rotation").toBe(true);
    expect(verifyWebhook(secret, headers(signedWithNext), body, now), "another secret").toBe(false);
    expect(verifyWebhook(secret, headers(signed), body.replace("completed", "failed"), now), "another body").toBe(
      false,
    );
    expect(verifyWebhook(secret, headers(signed), body, now + 301), "too old").toBe(false);
    expect(verifyWebhook(secret, { ...headers(signed), "webhook-id": "evt_other" }, body, now)).toBe(false);
  });

  it("lists every problem code the public API answers (its OpenAPI document's), under its status, and no other", () => {
    const rows = [...section(guide, "## Errors").matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map(
      ([, status, code]) => [code, Number(status)],
    );
    // The responses of its operations and the 405 of its paths; the shared Problem schema names every code of every API.
    const document = buildDocument();
    const shared = (document.components as { responses: Record<string, unknown> }).responses;
    const answered = problemCodesOf([document.paths, shared.MethodNotAllowed]);
    expect(answered.size).toBeGreaterThan(10);
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries([...answered].sort().map((code) => [code, PROBLEMS[code as ProblemCode].status])),
    );
    expect(rows).toHaveLength(answered.size);
  });

  it("links only to files that exist, and the README links to it", () => {
    const links = [...guide.matchAll(/\]\(([^)#]+)\)/g)].map((match) => match[1] ?? "").filter((l) => !l.includes(":"));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links)
      expect(() => readFileSync(path.resolve(path.dirname(guidePath), link)), link).not.toThrow();
    expect(readme).toContain("(docs/integration-guide.md)");
  });
});

/** Every problem `code` these OpenAPI responses may carry (the `enum` of each problem schema's `code`). */
function problemCodesOf(node: unknown, codes = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) problemCodesOf(item, codes);
  } else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      const values = (value as { enum?: unknown } | null)?.enum;
      if (key === "code" && Array.isArray(values)) for (const code of values) codes.add(String(code));
      else problemCodesOf(value, codes);
    }
  }
  return codes;
}
