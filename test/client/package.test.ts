/**
 * The client package as customers get it: its types generated from the OpenAPI document as it
 * is now, its build an ES module that works on its own, made by `npm ci` (its `prepare`) so the
 * repository imports it by its name.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const PACKAGE = path.join(ROOT, "clients/typescript");
const bin = (name: string) => path.join(PACKAGE, "node_modules", ".bin", name);

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "client-package-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("the client package", () => {
  it("holds the types the generator makes from openapi.json now (npm run generate -w clients/typescript)", async () => {
    const { scripts } = JSON.parse(await readFile(path.join(PACKAGE, "package.json"), "utf8")) as {
      scripts: { generate: string };
    };
    // The package's own generate command, written to a scratch file instead of src/schema.ts.
    const args = scripts.generate.split(" ").slice(1, -2);
    const fresh = path.join(scratch, "schema.ts");
    await run(bin("openapi-typescript"), [...args, "-o", fresh], { cwd: PACKAGE });
    const committed = await readFile(path.join(PACKAGE, "src/schema.ts"), "utf8");
    expect(committed, "src/schema.ts is behind openapi.json: run npm run generate -w clients/typescript").toBe(
      await readFile(fresh, "utf8"),
    );
  });

  it("builds to an ES module that verifies a signed event with nothing but its own dependencies", async () => {
    // Where `npm run build -w clients/typescript` writes it, beside the dependencies it resolves.
    const outDir = path.join(PACKAGE, "dist");
    await run(bin("tsc"), ["-p", "tsconfig.build.json"], { cwd: PACKAGE });
    const built = (await import(
      pathToFileURL(path.join(outDir, "index.js")).href
    )) as typeof import("../../clients/typescript/src/index.ts");
    expect(typeof built.createClient).toBe("function");
    const secret = `whsec_${Buffer.from("a test secret of enough length!").toString("base64")}`;
    const body = JSON.stringify({ id: "evt_1", type: "webhook.test", data: { app_id: "app_1", message: "hi" } });
    const at = new Date();
    const headers = {
      "webhook-id": "evt_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("evt_1", at, body),
    };
    expect(built.verifyWebhook(body, headers, secret)).toMatchObject({ type: "webhook.test" });
    const declarations = await readFile(path.join(outDir, "index.d.ts"), "utf8");
    expect(declarations).toContain("verifyWebhook");
  });
  it("is built by npm ci (its prepare script), so code in the repository imports it by its name", async () => {
    const { scripts } = JSON.parse(await readFile(path.join(PACKAGE, "package.json"), "utf8")) as {
      scripts: { prepare?: string };
    };
    expect(scripts.prepare).toBe("npm run build");
    // What npm ci runs for the workspace once its dependencies are installed.
    await run("npm", ["run", "-s", "prepare", "-w", "clients/typescript"], { cwd: ROOT });
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { createClient, UploadError } = await import("@verification-api/client");
         const client = createClient({ baseUrl: "http://127.0.0.1:1", apiKey: "vk_sandbox_x" });
         console.log(typeof client.waitForResult, typeof UploadError);`,
      ],
      { cwd: ROOT },
    );
    expect(stdout.trim()).toBe("function function");
    expect(await readFile(path.join(PACKAGE, "dist/index.d.ts"), "utf8")).toContain(
      "waitForResult(verificationId: string, options?: WaitOptions): Promise<Verification>;",
    );
  });
});
