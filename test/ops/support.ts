/** What the ops tests share: a probe through the real authorizer, and the plain-text scan. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, inject } from "vitest";
import { LOCAL_REGION, serveOnLoopback } from "../../local/engines.ts";
import { LOCAL_PORTAL_POOL, LOCAL_STAFF_POOL } from "../../local/resources.ts";
import { runOps } from "../../ops/program.ts";
import type { TestApi } from "../support/api.ts";
import { call, type Reply } from "../support/client.ts";

/** A well-formed id nobody has: a key that passes the authorizer gets 404 for it, from a handler. */
const UNKNOWN_VERIFICATION = "/v1/verifications/ver_01ARZ3NDEKTSV4RRFFQ69G5FAV";

/** Calls the API with `apiKey`; touches only the verifications table, so a faked clock is safe. */
export function probe(api: TestApi, apiKey: string): Promise<Reply> {
  return call(api.baseUrl, "GET", UNKNOWN_VERIFICATION, { headers: { "X-API-Key": apiKey } });
}

export const code = (reply: Reply) => (reply.json as { code?: string } | undefined)?.code;

/** The parts of a key or secret that must never be stored: the whole, and its random body. */
function fragments(secret: string): string[] {
  const body = secret.replace(/^(vk_(sandbox|production)_|whsec_)/, "");
  return [secret, body, body.slice(0, 16)];
}

/** Scans every table of `api` for `secrets` (API keys, webhook secrets) in plain text. */
export async function expectNoPlainSecrets(api: TestApi, secrets: string[]): Promise<void> {
  expect(secrets.length).toBeGreaterThan(0);
  const stored = [];
  for (const table of Object.values(api.tables)) {
    for (const item of await api.scan(table)) stored.push(JSON.stringify(item));
  }
  expect(stored.length).toBeGreaterThan(0);
  const text = stored.join("\n");
  for (const secret of secrets) {
    for (const fragment of fragments(secret))
      expect(text.includes(fragment), "a secret is stored in plain text").toBe(false);
  }
  expect(text).not.toMatch(/vk_(sandbox|production)_[A-Za-z0-9_-]{20}/);
  expect(text).not.toMatch(/whsec_/);
}

export interface OpsRun {
  exit: number;
  stdout: string;
  stderr: string;
}

/** What `npm start` writes while it runs, pointed at `api`'s tables, in a new data folder. */
export function runtimeFileFor(api: TestApi, dynamoEndpoint: string): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-ops-"));
  writeFileSync(
    path.join(dataDir, "runtime.json"),
    JSON.stringify({
      environment: api.environment,
      base_url: api.baseUrl,
      region: LOCAL_REGION,
      credentials: inject("engines").credentials,
      dynamodb_endpoint: dynamoEndpoint,
      s3_endpoint: process.env.S3_ENDPOINT,
      uploads_bucket: process.env.UPLOADS_BUCKET,
      kms_endpoint: process.env.KMS_ENDPOINT,
      sealing_key_id: process.env.SEALING_KEY_ID,
      audit_sealing_key_id: process.env.AUDIT_SEALING_KEY_ID,
      apigateway_endpoint: process.env.APIGATEWAY_ENDPOINT,
      usage_plan_id: process.env.USAGE_PLAN_ID,
      tables: {
        APPS_TABLE: api.tables.apps,
        VERIFICATIONS_TABLE: api.tables.verifications,
        EVENTS_TABLE: api.tables.events,
        AUDIT_TABLE: api.tables.audit,
        AUDIT_DIGESTS_TABLE: api.tables.auditDigests,
      },
      identity: {
        endpoint: api.identity.endpoint,
        staff_user_pool_id: LOCAL_STAFF_POOL.id,
        portal_user_pool_id: LOCAL_PORTAL_POOL.id,
      },
    }),
  );
  writeFileSync(path.join(dataDir, "secrets.key"), process.env.SECRETS_KEY ?? "");
  return dataDir;
}

/** `npm run ops -- <args>` in this process, aimed at the runtime described in `dataDir`. */
export async function opsInProcess(args: string[], dataDir: string): Promise<OpsRun> {
  let stdout = "";
  let stderr = "";
  const exit = await runOps(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { LOCAL_DATA_DIR: dataDir },
  });
  return { exit, stdout, stderr };
}

/** The principal the caller-identity endpoint names: an operator in the operator role. */
export const OPERATOR_ARN = "arn:aws:sts::123456789012:assumed-role/VerificationApi-sandbox-Operators/ayse";

/**
 * STS's GetCallerIdentity as AWS answers it (the query protocol: a form POST, an XML answer),
 * for the ops command aimed at a deployed stack, which asks STS who runs it before it records a
 * change. Anything else is refused as STS refuses an unknown action.
 */
export async function startCallerIdentity(
  options: { clockOffsetMs?: number } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += String(chunk);
    const action = new URLSearchParams(body).get("Action");
    if (request.method !== "POST" || action !== "GetCallerIdentity") {
      response.writeHead(400, { "content-type": "text/xml" });
      response.end(
        `<ErrorResponse><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>Unknown action ${action}</Message></Error><RequestId>0</RequestId></ErrorResponse>`,
      );
      return;
    }
    // AWS's clock, as its answers carry it: this machine's, unless the test sets it apart.
    const date = new Date(Date.now() + (options.clockOffsetMs ?? 0)).toUTCString();
    response.writeHead(200, { "content-type": "text/xml", date });
    response.end(
      [
        '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">',
        `<GetCallerIdentityResult><Arn>${OPERATOR_ARN}</Arn><UserId>AROAEXAMPLEID:ayse</UserId><Account>123456789012</Account></GetCallerIdentityResult>`,
        "<ResponseMetadata><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ResponseMetadata>",
        "</GetCallerIdentityResponse>",
      ].join(""),
    );
  });
  return serveOnLoopback(server, 0);
}
