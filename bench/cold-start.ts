/**
 * Cold start: each function bundled exactly as the stack bundles it, beside a baseline bundle
 * that only constructs the AWS SDK clients the function declares, each loaded in fresh `node`
 * processes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build, type Metafile } from "esbuild";
import { FUNCTIONS, type FunctionDefinition, type FunctionName } from "#shared/declarations/functions";
import { PROJECT_ROOT } from "../infra/api-function.ts";
import { esbuildOptions } from "../infra/esbuild-options.ts";
import { buildWeb } from "../web/build.ts";
import { median, round } from "./stats.ts";

const run = promisify(execFile);

/** As deployed: the functions run with `NODE_OPTIONS=--enable-source-maps` (infra/api-function.ts). */
const NODE_FLAGS = ["--enable-source-maps"];

/** Times `require` of the bundle named by the first argument; prints milliseconds. */
const PROBE =
  "const t=process.hrtime.bigint();require(process.argv[1]);process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))";

/** Source that constructs only the clients `name` declares, configured as `shared/adapters/aws-clients.ts` does. */
export function baselineSource(name: FunctionName): { source: string; clients: string[] } {
  // Widened to the declaration's type, so a setting the function leaves out reads as absent.
  const { access }: FunctionDefinition = FUNCTIONS[name];
  const lines: string[] = [];
  const clients: string[] = [];
  if (Object.keys(access.tables).length > 0) {
    clients.push("DynamoDB document client");
    lines.push(
      'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";',
      'import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";',
      "export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });",
    );
  }
  if (access.uploads.length > 0) {
    clients.push("S3");
    lines.push(
      'import { S3Client } from "@aws-sdk/client-s3";',
      'export const s3 = new S3Client({ requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" });',
    );
  }
  // The sealing key and the simulator's cookie key are read from Secrets Manager.
  if (access.secretsKey || access.simulator) {
    clients.push("Secrets Manager");
    lines.push(
      'import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";',
      "export const secrets = new SecretsManagerClient({});",
    );
  }
  // Webhook secrets are sealed and opened with KMS.
  if (access.sealing) {
    clients.push("KMS");
    lines.push('import { KMSClient } from "@aws-sdk/client-kms";', "export const kms = new KMSClient({});");
  }
  // New webhook events are sent to the delivery queue; checks and lookups to the issuer queue.
  if (access.deliveryQueue === "send" || access.issuer) {
    clients.push("SQS");
    lines.push('import { SQSClient } from "@aws-sdk/client-sqs";', "export const sqs = new SQSClient({});");
  }
  // New apps get their key in the usage plan through API Gateway's own API.
  if (access.appLimits) {
    clients.push("API Gateway");
    lines.push(
      'import { APIGatewayClient } from "@aws-sdk/client-api-gateway";',
      "export const apiGateway = new APIGatewayClient({});",
    );
  }
  // A user pool's GetUser checks a token; an owner's invitation creates a user in the customer pool.
  if (access.userPool || access.portalUserAdmin) {
    clients.push("Cognito");
    lines.push(
      'import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";',
      "export const cognito = new CognitoIdentityProviderClient({});",
    );
  }
  return { source: lines.join("\n"), clients };
}

/** Dummy values for every setting the function reads at init: nothing at init reaches the network. */
function initEnvironment(name: FunctionName, webAssets: string): NodeJS.ProcessEnv {
  const dummies: Record<string, string> = {
    ENVIRONMENT: "sandbox",
    APPS_TABLE: "bench-apps",
    VERIFICATIONS_TABLE: "bench-verifications",
    IDEMPOTENCY_TABLE: "bench-idempotency",
    EVENTS_TABLE: "bench-events",
    UPLOADS_BUCKET: "bench-uploads",
    VERIFICATION_RETENTION_DAYS: "365",
    SECRETS_KEY_ARN: "arn:aws:secretsmanager:us-east-1:000000000000:secret:bench-key",
    SEALING_KEY_ID: "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-0000000000be",
    SIMULATOR_DOCUMENTS: "/var/task/issuer",
    SIMULATOR_KEY_ARN: "arn:aws:secretsmanager:us-east-1:000000000000:secret:bench-simulator",
    ISSUER: "edevlet",
    ISSUER_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/000000000000/bench-lookups",
    AUDIT_TABLE: "bench-audit",
    USAGE_TABLE: "bench-usage",
    STAFF_USER_POOL_ID: "us-east-1_BenchStaff",
    STAFF_CLIENT_ID: "benchconsole",
    PORTAL_USER_POOL_ID: "us-east-1_BenchPortal",
    PORTAL_CLIENT_ID: "benchportal",
    USAGE_PLAN_ID: "benchplan",
    DELIVERY_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/000000000000/bench-deliveries",
    // The console reads its built files at init, so they are real.
    WEB_ASSETS: webAssets,
  };
  return {
    PATH: process.env.PATH,
    ...Object.fromEntries(
      FUNCTIONS[name].settings.flatMap((setting) => (dummies[setting] ? [[setting, dummies[setting]]] : [])),
    ),
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "BENCHDUMMY",
    AWS_SECRET_ACCESS_KEY: "bench-dummy",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    POWERTOOLS_SERVICE_NAME: "verification-api",
    POWERTOOLS_LOG_LEVEL: "INFO",
  };
}

async function initMs(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { stdout } = await run(process.execPath, [...NODE_FLAGS, "-e", PROBE, file], { env });
  return Number(stdout);
}

const kb = async (file: string) => round((await stat(file)).size / 1024, 1);

export interface ColdStartRow {
  function: FunctionName;
  clients: string[];
  bundleKb: number;
  sourceMapKb: number;
  baselineKb: number;
  initMs: number;
  baselineInitMs: number;
  ratio: number;
  samples: number;
  /** What the function's bundle holds that the baseline's does not: the largest parts, in KB. */
  beyondBaseline: { part: string; kb: number }[];
}

export const COLD_START_TARGET = 1.2;

/** Bytes in the output per package (`node_modules/<name>`), or `project code` for the rest. */
function packageBytes(metafile: Metafile): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      // The innermost package, so a copy nested under another package counts as itself.
      const inPackage = input.includes("node_modules/") ? input.split("node_modules/").at(-1) : undefined;
      const part = inPackage ? (/^(@[^/]+\/[^/]+|[^/]+)/.exec(inPackage)?.[1] ?? inPackage) : "project code";
      bytes.set(part, (bytes.get(part) ?? 0) + bytesInOutput);
    }
  }
  return bytes;
}

function beyond(fn: Map<string, number>, baseline: Map<string, number>): { part: string; kb: number }[] {
  return [...fn]
    .map(([part, bytes]) => ({ part, kb: round((bytes - (baseline.get(part) ?? 0)) / 1024, 1) }))
    .filter((entry) => entry.kb >= 10)
    .sort((a, b) => b.kb - a.kb)
    .slice(0, 5);
}

export async function measureColdStart(runs: number): Promise<ColdStartRow[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "verification-api-bench-"));
  const options = esbuildOptions();
  const rows: ColdStartRow[] = [];
  const webAssets = path.join(dir, "web");
  await buildWeb(webAssets);
  try {
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) {
      const outfile = path.join(dir, name, "index.js");
      const baselineFile = path.join(dir, `${name}-baseline`, "index.js");
      const baseline = baselineSource(name);
      const built = await build({
        ...options,
        entryPoints: [path.join(PROJECT_ROOT, FUNCTIONS[name].entry)],
        outfile,
        metafile: true,
      });
      const builtBaseline = await build({
        ...options,
        metafile: true,
        stdin: { contents: baseline.source, resolveDir: PROJECT_ROOT, loader: "js", sourcefile: "baseline.js" },
        outfile: baselineFile,
      });
      const env = initEnvironment(name, webAssets);
      const fn: number[] = [];
      const base: number[] = [];
      // Alternating keeps a burst of load on the shared machine from landing on one side only.
      for (let i = 0; i < runs; i++) {
        fn.push(await initMs(outfile, env));
        base.push(await initMs(baselineFile, env));
      }
      const initMedian = median(fn);
      const baselineMedian = median(base);
      rows.push({
        function: name,
        clients: baseline.clients,
        bundleKb: await kb(outfile),
        sourceMapKb: await kb(`${outfile}.map`),
        baselineKb: await kb(baselineFile),
        initMs: round(initMedian),
        baselineInitMs: round(baselineMedian),
        ratio: round(initMedian / baselineMedian),
        samples: runs,
        beyondBaseline: beyond(packageBytes(built.metafile), packageBytes(builtBaseline.metafile)),
      });
      process.stdout.write(
        `cold start  ${name.padEnd(24)} ${initMedian.toFixed(1)} ms vs ${baselineMedian.toFixed(1)} ms baseline\n`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
