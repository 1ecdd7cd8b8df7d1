/**
 * `npm run webhooks:trigger`, as a customer runs it against a sandbox: each event type it can
 * make arrives at the app's destination, signed; the ones it cannot make, and production keys,
 * are refused with the reason.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../../clients/typescript/src/index.ts";
import { useApiFixture } from "../support/fixture.ts";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

const fixture = useApiFixture({ pipeline: true, receiver: true });

async function trigger(apiKey: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("npm", ["run", "-s", "webhooks:trigger", "--", ...args], {
      cwd: ROOT,
      env: { ...process.env, VERIFICATION_API_URL: fixture.api.baseUrl, VERIFICATION_API_KEY: apiKey },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The types of the signed events the receiver got for `verificationId`, once `last` has arrived. */
async function eventsOf(secret: string, verificationId: string, last: string): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const events = fixture.receiver.deliveries
      .map((delivery) => verifyWebhook(delivery.body, delivery.headers, secret))
      .filter((event) => "verification" in event.data && event.data.verification.verification_id === verificationId);
    const types = events.map((event) => event.type);
    if (types.includes(last as (typeof types)[number])) return types;
    if (Date.now() > deadline) throw new Error(`${last} did not arrive: ${types.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("npm run webhooks:trigger", () => {
  it("makes the sandbox send each event type it names, signed with the app's secret", async () => {
    const app = await fixture.api.newApp("sandbox", fixture.receiver.url);
    const cases: [string[], string[]][] = [
      [["verification.completed"], ["verification.processing", "verification.completed"]],
      [
        ["verification.completed", "--result", "rejected"],
        ["verification.processing", "verification.completed"],
      ],
      [["verification.failed"], ["verification.processing", "verification.failed"]],
      [["verification.in_review"], ["verification.processing", "verification.in_review", "verification.completed"]],
      [["verification.redacted"], ["verification.processing", "verification.completed", "verification.redacted"]],
    ];
    for (const [args, expected] of cases) {
      const { code, stdout } = await trigger(app.api_key, args);
      expect(code, stdout).toBe(0);
      const id = /^(ver_\w+)/.exec(stdout)?.[1] ?? "";
      const types = await eventsOf(app.webhook_secret, id, expected.at(-1) as string);
      expect([...types].sort(), args.join(" ")).toEqual([...expected].sort());
      if (args.includes("rejected")) expect(stdout).toContain("completed (rejected)");
    }
  });

  it("refuses what it cannot make, a wrong --result, and production keys, saying why", async () => {
    const sandbox = await fixture.api.newApp("sandbox");
    const expired = await trigger(sandbox.api_key, ["verification.expired"]);
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain("24 h after a create");
    const test = await trigger(sandbox.api_key, ["webhook.test"]);
    expect(test.stderr).toContain("from the portal");
    const result = await trigger(sandbox.api_key, ["verification.failed", "--result", "rejected"]);
    expect(result.stderr).toContain("only for verification.completed");
    const unknown = await trigger(sandbox.api_key, ["verification.whatever"]);
    expect(unknown.stderr).toContain("Name an event type");
    const production = await trigger("vk_production_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", [
      "verification.completed",
    ]);
    expect(production.code).toBe(1);
    expect(production.stderr).toContain("Only a sandbox key");
  });
});
